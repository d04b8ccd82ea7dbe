# rigview: thin wrapper over CMake presets. `make run` and `make test` are the quick start.
PRESET ?= release
BUILD_DIR := build/$(PRESET)
JOBS ?= $(shell nproc)
ARGS ?=

.PHONY: all deps configure build run test debug asan format clean
all: build

deps:
	@bash third_party/install_deps.sh

configure: deps
	@cmake --preset $(PRESET) >/dev/null

build: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS)

run: build
	$(BUILD_DIR)/app/rigview $(ARGS)

test: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

debug:
	$(MAKE) test PRESET=debug

asan:
	$(MAKE) test PRESET=asan

fuzz:  # libFuzzer + ASan/UBSan in build/fuzz (clang-14, libclang-rt-14-dev); FUZZ_RUNS per target
	JOBS=$(JOBS) bash tests/fuzz/run_fuzz.sh --build build/fuzz $(or $(FUZZ_RUNS),200000)

format:
	clang-format -i $$(git ls-files '*.cpp' '*.h')

clean:
	rm -rf build
