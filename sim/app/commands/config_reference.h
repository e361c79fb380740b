// `trnsim config-reference`: the configuration reference (docs/config-reference.md),
// generated from the field lists of the spec structs (their visit() functions).
#pragma once

#include <string>

namespace trn::app {

/// The reference as Markdown.
std::string config_reference();

}  // namespace trn::app
