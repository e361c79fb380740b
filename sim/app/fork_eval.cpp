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

}  // namespace trn::app
