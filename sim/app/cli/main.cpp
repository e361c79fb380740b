// trnsim entry point: silences the SystemC banner, then hands over to the SystemC kernel,
// which calls sc_main (sim/app/cli.cpp).
#include <cstdlib>

#include <systemc>

#include "sim/app/cli/commands.h"
#include "sim/base/output_file.h"

int sc_main(int argc, char** argv) { return trn::app::run_cli(argc, argv); }

int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  trn::sim::install_signal_cleanup();  // SIGINT/SIGTERM: remove partial output files
  return sc_core::sc_elab_and_sim(argc, argv);
}
