// run_forked (fork_pool.h): fork, a pipe per child, poll() until each pipe closes, waitpid.
#include "sim/base/fork_pool.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "sim/base/output_file.h"

namespace trn::sim {

int ChildOutcome::exit_code() const { return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status); }

ChildResult ChildResult::of(nlohmann::json v) {
  ChildResult r;
  r.value = std::move(v);
  return r;
}

ChildResult ChildResult::error(int status, std::string message, std::string detail, std::string kind) {
  ChildResult r;
  r.status = status;
  r.kind = std::move(kind);
  r.message = std::move(message);
  r.detail = std::move(detail);
  return r;
}

std::string ChildResult::seal() const {
  if (ok()) return nlohmann::json{{"value", value}}.dump();
  nlohmann::json e = {{"status", status}, {"message", message}, {"detail", detail}};
  if (!kind.empty()) e["kind"] = kind;
  return nlohmann::json{{"error", e}}.dump();
}

namespace {
int g_result_fd = -1;  // child_result_fd()

bool write_all(int fd, const std::string& text) {
  size_t sent = 0;
  while (sent < text.size()) {
    const ssize_t w = write(fd, text.data() + sent, text.size() - sent);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    sent += static_cast<size_t>(w);
  }
  return true;
}
}  // namespace

int child_result_fd() { return g_result_fd; }

bool ChildResult::send(int fd) const { return fd >= 0 && write_all(fd, seal()); }

ChildResult ChildResult::open(const ChildOutcome& c) {
  if (WIFSIGNALED(c.status))
    return error(3, "the simulation process was killed by signal " + std::to_string(WTERMSIG(c.status)));
  const auto no_result = [&c] {
    return error(3, "the simulation process exited with status " + std::to_string(c.exit_code()) + " and no result");
  };
  if (c.output.empty()) return no_result();
  const nlohmann::json j = nlohmann::json::parse(c.output, nullptr, false);
  if (j.is_object() && j.contains("value")) return c.exit_code() == 0 ? of(j["value"]) : no_result();
  if (j.is_object() && j.contains("error") && j["error"].is_object()) {
    const nlohmann::json& e = j["error"];
    return error(e.value("status", 3), e.value("message", std::string("an error without a message")),
                 e.value("detail", std::string()), e.value("kind", std::string()));
  }
  if (c.exit_code() != 0) return no_result();
  return error(3, "the simulation process sent a result that is not a sealed envelope");
}

namespace {

struct Running {
  size_t index = 0;
  pid_t pid = -1;
  int fd = -1;  // read end of the child's pipe
  std::string text;
};

[[noreturn]] void child_main(int fd, const std::function<std::string(size_t)>& body, size_t i,
                             const std::string& what) {
  std::string out;
  g_result_fd = fd;
  try {
    out = body(i);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "trnsim: %s failed: %s\n", what.c_str(), e.what());
    _exit(1);
  }
  if (!write_all(fd, out)) _exit(1);
  close(fd);
  _exit(0);
}

// In a new child: it dies with its parent. The kernel sends SIGTERM when the parent exits,
// however it ends (SIGKILL included; the setting survives exec), and a parent that ended
// between fork() and prctl() is caught by the check that follows. The parent's list of
// children is not this child's, nor is its work directory.
void die_with_parent(pid_t parent) {
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (getppid() != parent) _exit(1);
  forget_children();
  unregister_temp_dir();
}

Running spawn(size_t i, const std::function<std::string(size_t)>& body, const std::string& what) {
  int fd[2];
  if (pipe(fd) != 0) throw std::runtime_error("pipe failed");
  fcntl(fd[0], F_SETFD, FD_CLOEXEC);  // a child that execs keeps only its own write end
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    die_with_parent(parent);
    close(fd[0]);
    child_main(fd[1], body, i, what);
  }
  register_child(pid);  // the parent's SIGINT / SIGTERM handler forwards the signal to it
  close(fd[1]);
  return Running{i, pid, fd[0], {}};
}

// Reads what is ready on `r`'s pipe; true at end of file (the child has finished).
bool drain(Running& r) {
  char buf[65536];
  ssize_t got = read(r.fd, buf, sizeof buf);
  if (got < 0 && errno == EINTR) return false;
  if (got <= 0) return true;
  r.text.append(buf, static_cast<size_t>(got));
  return false;
}

ChildOutcome reap(Running& r) {
  close(r.fd);
  ChildOutcome out;
  while (waitpid(r.pid, &out.status, 0) < 0 && errno == EINTR) {
  }
  unregister_child(r.pid);
  out.output = std::move(r.text);
  return out;
}

// The caller was interrupted: every running child is terminated and reaped, then Interrupted.
[[noreturn]] void stop_all(std::vector<Running>& running) {
  for (auto& r : running) kill(r.pid, SIGTERM);
  for (auto& r : running) reap(r);
  throw Interrupted();
}

}  // namespace

void run_forked(size_t n, const std::function<std::string(size_t)>& body, int jobs,
                const std::function<void(size_t, ChildOutcome&&)>& done, const std::string& what,
                const std::function<bool()>& interrupted) {
  std::vector<Running> running;
  size_t next = 0;
  while (next < n || !running.empty()) {
    while (next < n && static_cast<int>(running.size()) < std::max(1, jobs))
      running.push_back(spawn(next++, body, what));
    std::vector<pollfd> fds;
    for (const auto& r : running) fds.push_back(pollfd{r.fd, POLLIN, 0});
    if (poll(fds.data(), fds.size(), -1) < 0) {
      if (errno != EINTR) throw std::runtime_error("poll failed");
      if (interrupted && interrupted()) stop_all(running);
      continue;
    }
    std::vector<Running> finished;
    for (size_t k = 0; k < running.size(); ++k)
      if (fds[k].revents && drain(running[k])) {
        finished.push_back(std::move(running[k]));
        running[k].fd = -1;  // marks it for removal
      }
    running.erase(std::remove_if(running.begin(), running.end(), [](const Running& r) { return r.fd < 0; }),
                  running.end());
    for (auto& r : finished) done(r.index, reap(r));
  }
}

struct ForkedBatch::Impl {
  std::vector<Running> running;
};

ForkedBatch::ForkedBatch(size_t n, const std::function<std::string(size_t)>& body, const std::string& what)
    : impl_(std::make_unique<Impl>()) {
  for (size_t i = 0; i < n; ++i) impl_->running.push_back(spawn(i, body, what));
}

ForkedBatch::~ForkedBatch() {
  for (auto& r : impl_->running) kill(r.pid, SIGTERM);
  for (auto& r : impl_->running) reap(r);
}

std::vector<ChildOutcome> ForkedBatch::collect() {
  std::vector<ChildOutcome> out;
  for (auto& r : impl_->running) {
    while (!drain(r)) {
    }
    out.push_back(reap(r));
  }
  impl_->running.clear();
  return out;
}

}  // namespace trn::sim
