// Catch2 runner for SystemC tests: a custom sc_main. catch_discover_tests runs each test
// case in its own process, so every case gets a fresh SystemC kernel.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdlib>

#include <systemc>

int sc_main(int argc, char** argv) { return Catch::Session().run(argc, argv); }

int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  return sc_core::sc_elab_and_sim(argc, argv);
}
