// run_in_child implementation.
#include "sim/app/fork_eval.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <stdexcept>

namespace trn::app {

std::vector<double> run_in_child(const std::function<std::vector<double>()>& body, const std::string& what) {
  int fd[2];
  if (pipe(fd) != 0) throw std::runtime_error("pipe failed");
  std::fflush(stdout);
  std::fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    close(fd[0]);
    std::vector<double> v;
    try {
      v = body();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "trnsim: %s failed: %s\n", what.c_str(), e.what());
      _exit(1);
    }
    size_t n = v.size();
    ssize_t w = write(fd[1], &n, sizeof n);
    if (n) w = write(fd[1], v.data(), n * sizeof(double));
    (void)w;
    close(fd[1]);
    _exit(0);
  }
  close(fd[1]);
  size_t n = 0;
  std::vector<double> v;
  if (read(fd[0], &n, sizeof n) == static_cast<ssize_t>(sizeof n) && n < 1024) {
    v.resize(n);
    size_t got = 0;
    while (got < n * sizeof(double)) {
      ssize_t r = read(fd[0], reinterpret_cast<char*>(v.data()) + got, n * sizeof(double) - got);
      if (r <= 0) break;
      got += static_cast<size_t>(r);
    }
    if (got != n * sizeof(double)) v.clear();
  }
  close(fd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (v.empty() || !WIFEXITED(status) || WEXITSTATUS(status) != 0) throw std::runtime_error(what + " failed");
  return v;
}

namespace {

struct Child {
  pid_t pid = -1;
  int fd = -1;
  std::string text;
};

Child spawn(const std::function<std::string()>& body, const std::string& what) {
  int fd[2];
  if (pipe(fd) != 0) throw std::runtime_error("pipe failed");
  std::fflush(stdout);
  std::fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    close(fd[0]);
    std::string out;
    try {
      out = body();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "trnsim: %s failed: %s\n", what.c_str(), e.what());
      _exit(1);
    }
    size_t done = 0;
    while (done < out.size()) {
      ssize_t w = write(fd[1], out.data() + done, out.size() - done);
      if (w <= 0) _exit(1);
      done += static_cast<size_t>(w);
    }
    close(fd[1]);
    _exit(0);
  }
  close(fd[1]);
  return Child{pid, fd[0], {}};
}

// Reads the child's whole output and reaps it; false when it failed.
bool collect(Child& c) {
  char buf[65536];
  for (;;) {
    ssize_t r = read(c.fd, buf, sizeof buf);
    if (r <= 0) break;
    c.text.append(buf, static_cast<size_t>(r));
  }
  close(c.fd);
  int status = 0;
  waitpid(c.pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 && !c.text.empty();
}

}  // namespace

std::vector<std::string> run_in_children(const std::vector<std::function<std::string()>>& bodies,
                                         const std::string& what, int jobs) {
  std::vector<std::string> out(bodies.size());
  std::vector<std::pair<size_t, Child>> running;
  bool ok = true;
  auto finish_oldest = [&] {
    auto& [i, c] = running.front();
    ok = collect(c) && ok;
    out[i] = std::move(c.text);
    running.erase(running.begin());
  };
  for (size_t i = 0; i < bodies.size(); ++i) {
    if (static_cast<int>(running.size()) >= std::max(1, jobs)) finish_oldest();
    running.emplace_back(i, spawn(bodies[i], what));
  }
  while (!running.empty()) finish_oldest();
  if (!ok) throw std::runtime_error(what + " failed");
  return out;
}

}  // namespace trn::app
