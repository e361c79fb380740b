// Catch2 runner for the plain unit tests (no SystemC kernel).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
