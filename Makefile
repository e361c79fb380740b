# trnsim: the two commands a new user needs on a fresh Debian 12 machine are
#   make demo   (installs missing packages, builds, runs the default scenario)
#   make test   (the same set-up, then every test)
SHELL := /bin/bash
MAKEFLAGS += --no-print-directory
BUILD ?= build
JOBS ?= $(shell nproc)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
DEB_PKGS := cmake g++ make pkg-config libsystemc-dev libboost-graph-dev libeigen3-dev \
            libyaml-cpp-dev catch2 nlohmann-json3-dev libcli11-dev libbenchmark-dev python3 \
            libsqlite3-dev sqlite3 parallel chromium time python3-dev pybind11-dev python3-jsonschema python3-pandas python3-yaml \
            clang-format clang-tidy libprotobuf-dev protobuf-compiler python3-protobuf

# Only for `make fuzz` (clang with libFuzzer), so that `make test` does not pay for them.
FUZZ_PKGS := clang libclang-rt-14-dev
FUZZ_SECONDS ?= 60

# Only for `make test-slurm` (a private single-node Slurm, test/slurm/run_slurm_test.sh). On a
# systemd machine these packages install system munge/slurm services; the test uses none of
# them (its own key, socket, ports and slurm.conf under a temporary directory).
SLURM_PKGS := munge slurmctld slurmd slurm-client

.PHONY: deps build demo test bench validate tidy-record test-sanitize clean install
.PHONY: fuzz fuzz-deps test-sanitize-quick test-sanitize-loaders slurm-deps test-slurm

# $(call install_missing,PACKAGES): apt-get installs those of PACKAGES that are missing.
define install_missing
	@missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "$@: installing$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	else echo "$@: all Debian packages present"; fi
endef

deps:
	$(call install_missing,$(DEB_PKGS))

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release > $(BUILD).cmake.log 2>&1 || { cat $(BUILD).cmake.log; exit 1; }
	@cmake --build $(BUILD) -j $(JOBS)

demo: build
	./$(BUILD)/trnsim startup qwen3-32b-trn2

# PREFIX/bin/trnsim, the data in PREFIX/share/trnsim (the binary finds it by itself) and the
# Python package in PREFIX/lib/python3.X/site-packages/trnsim (README, "Installing").
PREFIX ?= /usr/local
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

# Two tiers (ctest labels, CMakeLists.txt): `fast` (unit, SystemC, fuzz replay, layering,
# formatting, bad input and the other quick CLI tests) first, so that a broken build fails in
# about a minute; then `slow` (clang-tidy and the big CLI tests). A test without a label fails.
test: build
	@unlabelled=$$(cd $(BUILD) && ctest -N -LE '^(fast|slow)$$' | grep -c 'Test *#'); \
	  [ "$$unlabelled" -eq 0 ] || { echo "make test: $$unlabelled test(s) have neither label fast nor slow:"; \
	  cd $(BUILD) && ctest -N -LE '^(fast|slow)$$'; exit 1; }
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) -L '^fast$$'
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) -L '^slow$$'

bench: build
	./tools/run_benchmarks.sh $(BUILD)

# The compile-latency fit against every public start-up figure (in-sample, leave-one-out and
# held-out errors), and every row of AWS's published trn1 training tables against the
# simulation; regenerates those sections of docs/validation.md.
validate: build
	python3 tools/validate_compile.py $(BUILD)
	./$(BUILD)/trnsim calibrate-intervals --out workloads/calibration/intervals.yaml
	python3 tools/validate.py $(BUILD) -j $(JOBS)

# Runs clang-tidy as the test `tidy` does and records the inputs of every file that passed in
# test/tidy_clean.txt, so that CI checks again only the files whose inputs changed (commit it
# with the change; test/check_tidy.sh).
tidy-record: build
	TIDY_UPDATE=1 bash test/check_tidy.sh . $(BUILD)

test-sanitize: deps
	@cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTRNSIM_SANITIZE=ON -DTRNSIM_BENCH=OFF > build-sanitize.cmake.log 2>&1 || { cat build-sanitize.cmake.log; exit 1; }
	@cmake --build build-sanitize -j $(JOBS)
	cd build-sanitize && ctest --output-on-failure -j $(JOBS)

# ASan + UBSan on the fast half of the suite: unit tests, fuzz regression replay and the
# bad-input CLI tests (.ci/run runs it when the time budget allows). -O1 -g1 (line tables for
# sanitizer reports) compiles faster than RelWithDebInfo.
test-sanitize-quick: deps
	@cmake -S . -B build-sanitize-quick -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" -DTRNSIM_SANITIZE=ON -DTRNSIM_BENCH=OFF > build-sanitize-quick.cmake.log 2>&1 || { cat build-sanitize-quick.cmake.log; exit 1; }
	@cmake --build build-sanitize-quick -j $(JOBS) --target unit_tests trnsim fuzz_config_yaml_replay fuzz_scenario_replay fuzz_hf_import_replay
	cd build-sanitize-quick && ctest --output-on-failure -j $(JOBS) -R '^(unit:|fuzz replay:|cli: bad_)'

# The smallest representative sanitizer pass: the three loaders (YAML configuration, scenario,
# Hugging Face import) under ASan + UBSan, replaying every fuzz regression and seed input.
test-sanitize-loaders: deps
	@cmake -S . -B build-sanitize-quick -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" -DTRNSIM_SANITIZE=ON -DTRNSIM_BENCH=OFF > build-sanitize-quick.cmake.log 2>&1 || { cat build-sanitize-quick.cmake.log; exit 1; }
	@cmake --build build-sanitize-quick -j $(JOBS) --target fuzz_config_yaml_replay fuzz_scenario_replay fuzz_hf_import_replay
	cd build-sanitize-quick && ctest --output-on-failure -j $(JOBS) -R '^fuzz replay:'

fuzz-deps:
	$(call install_missing,$(FUZZ_PKGS))

# libFuzzer on the YAML loader, the scenario loader and the Hugging Face importer,
# FUZZ_SECONDS each; fails on any crash (docs/robustness.md).
fuzz: deps fuzz-deps
	@CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTRNSIM_FUZZ=ON -DTRNSIM_BENCH=OFF > build-fuzz.cmake.log 2>&1 || { cat build-fuzz.cmake.log; exit 1; }
	@cmake --build build-fuzz -j $(JOBS) --target fuzz_config_yaml fuzz_scenario fuzz_hf_import
	bash test/fuzz/run_fuzzers.sh build-fuzz $(FUZZ_SECONDS)

slurm-deps:
	$(call install_missing,$(SLURM_PKGS))

# A shipped sweep as a Slurm job array on a private single-node cluster (munged, slurmctld and
# slurmd started and stopped by the script, as root); the merged shards must equal a local run
# (docs/sweeps.md, Slurm).
test-slurm: build slurm-deps
	$(SUDO) bash test/slurm/run_slurm_test.sh $(BUILD)/trnsim

clean:
	rm -rf $(BUILD) build-sanitize build-sanitize-quick build-fuzz *.cmake.log
