# Thin wrapper over the CMake presets. `make run` and `make test` do all the
# set-up on a fresh Debian 12 machine (tools/install-deps), then build.
PRESET ?= cpu-gnu
NP ?= 2
# one thread per rank unless asked: NP ranks already fill a small machine, and
# oversubscribed OpenMP barriers spin
export OMP_NUM_THREADS ?= 1
BUILD := build/$(PRESET)
JOBS ?= $(shell nproc)

.PHONY: all deps configure build run test clean

all: build

deps:
	./tools/install-deps

configure: deps
	cmake --preset $(PRESET)

build: configure
	cmake --build --preset $(PRESET) -j $(JOBS)

run: build
	@mkdir -p results
	$(BUILD)/gale-mpiexec -n $(NP) $(BUILD)/gale run configs/default.ini --report results/default.json
	@echo "gale: results in results/default.json (run report); the log above is the run summary"

# ends with the tests that did not run and why (tests/report_skips.py, from
# CTest's JUnit file), pass or fail
test: build
	@rc=0; ctest --preset $(PRESET) -j $(JOBS) --output-junit Testing/Temporary/junit.xml || rc=$$?; \
	python3 tests/report_skips.py $(BUILD)/Testing/Temporary/junit.xml; exit $$rc

clean:
	rm -rf build
