# rigview: thin wrapper over CMake presets. `make run` and `make test` are the quick start.
#   make run            builds only the rigview executable, then runs it (ARGS="model.glb ...")
#   make build          builds everything: app, tests, benchmarks
#   make test           builds everything, installs the test-only packages (Chromium for the
#                       fidelity suite), runs ctest (LABEL=quick|gpu|corpus|viewer|fidelity)
#   make debug / asan   make test with the debug / ASan+UBSan preset
PRESET ?= release
BUILD_DIR := build/$(PRESET)
JOBS ?= $(shell nproc)
ARGS ?=
LABEL ?=
# Sub-makes (cmake --build) need not announce every directory.
MAKEFLAGS += --no-print-directory

.PHONY: all deps test-deps configure app build run test debug asan format clean
all: build

# Silent and quick (a dpkg-query per package) when nothing is missing; apt-get only otherwise.
deps:
	@bash third_party/install_deps.sh

# What only the tests need (Chromium for tests/fidelity); `make run` never waits for it.
test-deps:
	@bash third_party/install_test_deps.sh

# Configures once (again only when CMakePresets.json changes); afterwards `cmake --build` re-runs
# CMake by itself when a CMakeLists.txt changes or a globbed folder gains a file.
configure: deps $(BUILD_DIR)/Makefile

$(BUILD_DIR)/Makefile: CMakePresets.json | deps
	@cmake --preset $(PRESET) >/dev/null

app: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS) --target rigview

build: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS)

run: app
	$(BUILD_DIR)/app/rigview $(ARGS)

test: build test-deps
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS) $(if $(LABEL),-L '$(LABEL)')

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
