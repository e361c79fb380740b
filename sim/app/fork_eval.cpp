// run_in_child implementation.
#include "sim/app/fork_eval.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace trn::app {

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

std::vector<double> run_in_child(const std::function<std::vector<double>()>& body, const std::string& what) {
  std::string out = run_in_children({[&body] {
                                      std::vector<double> v = body();
                                      return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(double));
                                    }},
                                    what, 1)[0];
  std::vector<double> v(out.size() / sizeof(double));
  std::memcpy(v.data(), out.data(), v.size() * sizeof(double));
  return v;
}

}  // namespace trn::app
