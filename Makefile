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
            libsqlite3-dev sqlite3 parallel

.PHONY: deps build demo test bench test-sanitize clean

deps:
	@missing=""; for p in $(DEB_PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "deps: installing$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	else echo "deps: all Debian packages present"; fi

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release > $(BUILD).cmake.log 2>&1 || { cat $(BUILD).cmake.log; exit 1; }
	@cmake --build $(BUILD) -j $(JOBS)

demo: build
	./$(BUILD)/trnsim startup qwen3-32b-trn2

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

bench: build
	./tools/run_benchmarks.sh $(BUILD)

test-sanitize: deps
	@cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTRNSIM_SANITIZE=ON -DTRNSIM_BENCH=OFF > build-sanitize.cmake.log 2>&1 || { cat build-sanitize.cmake.log; exit 1; }
	@cmake --build build-sanitize -j $(JOBS)
	cd build-sanitize && ctest --output-on-failure -j $(JOBS)

clean:
	rm -rf $(BUILD) build-sanitize *.cmake.log
