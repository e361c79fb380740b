// Output files written atomically: content goes to a temporary name beside the target and
// is renamed into place only when complete, so an error or a signal never leaves a
// half-written file. Paths are checked for writability before a run starts.
#pragma once

#include <sys/types.h>

#include <string>
#include <utility>
#include <vector>

namespace trn::sim {

/// Throws ConfigError (exit 2) when `path` cannot be written: its directory is missing,
/// it names a directory or another non-regular file (a device or symbolic link, which the
/// rename would replace), or the directory is not writable. Call before simulating.
void check_writable(const std::string& path, const std::string& option);

/// Temporary files in progress: removed by the SIGINT / SIGTERM handler so that an
/// interrupted run leaves no partial file (install_signal_cleanup() in main).
void register_temp_file(const std::string& path);
void unregister_temp_file(const std::string& path);
/// A work directory in progress whose files are named 0<suffix> .. (count - 1)<suffix> (one at a
/// time; a sweep's worker logs): the SIGINT / SIGTERM handler removes those files and the
/// directory.
void register_temp_dir(const std::string& dir, int count, const std::string& suffix);
void unregister_temp_dir();
/// Child processes in progress (sim/base/fork_pool): the SIGINT / SIGTERM handler forwards the
/// signal to each, waits briefly for them, then kills what is left, so that no child outlives
/// an interrupted parent. forget_children() empties the list (in a new child, whose parent's
/// children are its siblings).
void register_child(pid_t pid);
void unregister_child(pid_t pid);
void forget_children();
/// Installs handlers for SIGINT and SIGTERM that forward the signal to registered children,
/// unlink registered temporary files and exit with 128 + signal.
void install_signal_cleanup();

/// Writes `content` to `path` via a temporary file and rename().
void write_file_atomic(const std::string& path, const std::string& content);

/// Writes several (path, content) files all or nothing: every temporary file is written
/// before any is renamed into place, so a failure leaves none of them behind. Errors name
/// `options[i]` (e.g. "--json") before the path when given.
void write_files_atomic(const std::vector<std::pair<std::string, std::string>>& files,
                        const std::vector<std::string>& options = {});

}  // namespace trn::sim
