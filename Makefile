# SoftPasskey: `make demo` runs the main job, `make test` runs every test.
# Both install what they need first (Debian packages with apt-get, Python tools into .venv).

SHELL := /bin/bash
APT_PACKAGES := pkg-config libcbor-dev libssl-dev libcurl4-openssl-dev zlib1g-dev libp11-kit-dev softhsm2 opensc libpsl-dev publicsuffix libsqlite3-dev python3 python3-venv \
	time chromium firefox-esr webkit2gtk-driver xvfb libfido2-dev fido2-tools golang-go golang-github-duo-labs-webauthn-dev \
	postgresql nginx-light apache2 libapache2-mod-auth-openidc debootstrap
# The VM stage's (vm-test): Debian's kernel, qemu and a static busybox, without their recommendations (firmware,
# initramfs-tools' and qemu's extras: some 90 MB to fetch instead of several hundred); INITRD=No spares the kernel's
# own initramfs (half a minute of CPU), which the stage never boots: it packs one of its own (Tests/VM/run.sh)
APT_PACKAGES_NO_RECOMMENDS := qemu-system-x86 linux-image-amd64 busybox-static
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
VENV := .venv
SWIFT_BUILD_FLAGS ?=

.PHONY: setup apt-packages python-tools build build-tests test swift-test postgres-test interop-test examples-test browser-test vm-test demo docs lint clean fuzz \
	fuzz-build fuzz-regressions bench growth dist dist-test bare-root-background vm-test-background vm-test-wait

## setup: install missing Debian packages and the Python test tools (idempotent, quiet when done)
setup: apt-packages python-tools

apt-packages:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	bare=""; for p in $(APT_PACKAGES_NO_RECOMMENDS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || bare="$$bare $$p"; \
	done; \
	if [ -n "$$missing$$bare" ]; then \
	  echo "setup: installing$$missing$$bare"; \
	  $(SUDO) apt-get update -qq && \
	  { [ -z "$$missing" ] || DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; } && \
	  { [ -z "$$bare" ] || $(SUDO) env DEBIAN_FRONTEND=noninteractive INITRD=No apt-get install -y -qq \
	    --no-install-recommends $$bare >/dev/null; }; \
	fi

python-tools: $(VENV)/.installed

PYTHON_REQUIREMENTS := Tests/Interop/requirements.txt Examples/python/requirements.txt Examples/locust/requirements.txt \
	Tests/Browser/requirements.txt Dist/requirements.txt

$(VENV)/.installed: $(PYTHON_REQUIREMENTS) Tests/Interop/requirements-peer.txt Python/pyproject.toml Python/setup.py
	@echo "setup: creating $(VENV) with the interop tools and the examples' packages"
	@python3 -m venv $(VENV)
	@$(VENV)/bin/pip install -q --disable-pip-version-check $(addprefix -r ,$(PYTHON_REQUIREMENTS))
	@$(VENV)/bin/pip install -q --disable-pip-version-check --no-deps -r Tests/Interop/requirements-peer.txt
	@$(VENV)/bin/pip install -q --disable-pip-version-check -e Python
	@touch $@

## build: compile everything (debug)
build: setup
	swift build $(SWIFT_BUILD_FLAGS)

# The tests too, in the same build, so that swift-test builds nothing (built apart, the libraries were compiled twice)
build-tests: setup
	swift build --build-tests $(SWIFT_BUILD_FLAGS)

## test: style, documentation, the Swift test suites (the tenant's on SQLite, its store suites again on PostgreSQL),
## the Python interop suite against the built CLI, the examples (pytest against passkey serve, Locust in distributed
## mode), the FIDO device on a real kernel in a VM (vm-test, beside the interop stage), every fuzz target over its
## seeds and past crashers, and the wheel and the tarball on a bare Debian root, made
## from test's own debug build (a release build would add some 17 minutes; `make dist dist-test` tests the release)
test: setup bare-root-background build-tests lint docs swift-test postgres-test vm-test-background interop-test \
	examples-test vm-test-wait browser-test fuzz-regressions dist-test
test: DIST_CONFIGURATION = debug

swift-test:
	swift test $(SWIFT_BUILD_FLAGS)

## postgres-test: the tenant's store suites again on PostgreSQL, and tenant processes sharing one database
## (cross-instance, the database restarted under load, SIGTERM drain), against a throwaway cluster on a Unix socket in
## a new temporary directory (Tests/Support/pg-cluster.sh), stopped and removed even when a test fails; tests built by
## swift-test, at most PG_TEST_SECONDS. The store suites are those whose subject is something the store keeps or
## decides (users and passkeys, their lookups, paging and search, upstream identities, organizations, expiring records,
## codes and embedded requests redeemed once, refresh-token rotation, attempt windows, settings) or a column it must
## round-trip (DPoP binding, sid); the tenant's other suites (HTTP shapes, client authentication, configuration,
## redaction) run on SQLite, in swift-test. Swift Testing starts every test at once unless told a width: PG_TEST_WIDTH
## tests at a time keep the tenants' connection pools within the cluster's max_connections. The cluster goes with its
## databases, so the tests leave them (PASSKEY_TEST_POSTGRES_THROWAWAY, Tests/TestSupport/TestDatabase.swift); it is
## in PG_TEST_DIR, /dev/shm when the machine has 8 GiB to spare (it grows to about 2.5 GB, whose writing and removal
## on a disk took minutes)
PG_TEST_SECONDS ?= 900
PG_TEST_DIR ?= $(shell [ -d /dev/shm ] && [ $$(awk '/^MemAvailable:/ {print $$2}' /proc/meminfo) -ge 8388608 ] \
	&& echo /dev/shm || echo $${TMPDIR:-/tmp})
PG_TEST_WIDTH ?= 16
PG_STORE_SUITES := PostgresStoreTests|TestDatabaseSweepTests|PersistenceTests|SigningKeyTests|RememberedKeyTests\
	|WebAuthnGrantTests|LiveTenantTests|FlexibleIdentifierPageTests|MyAccountTests|MyAccountManageTests\
	|ManagementAPITests|ManagementMethodsTests|ManagementUserSearchTests|ManagementSeedLoginTests|UserStorePagingTests\
	|UserImportTests\
	|OrganizationTests|WebAuthPageTests|LogoutTests|DPoPProofTests|DPoPNonceTests|DPoPBindingTests|SessionIDTests\
	|RefreshAndRevokeTests|SinglePageAppTokenTests|AuthorizationCodeGrantTests|AttemptLimitTests\
	|UpstreamLoginTests|UpstreamRefusalTests|EmbeddedModeTests|OutboxTests|PasswordlessTests\
	|PasswordSignupTests|PasswordGrantTests|PasswordResetTests|PasswordPageTests\
	|UserMetadataTests|AccountLinkingTests|SessionTransferTests|InvitationTests
PG_PROCESS_SUITES := CrossInstanceTests|DatabaseFaultTests|TenantDrainTests|tenantGivesLoginsOfInstancesOnOnePostgreSQL
empty :=
space := $(empty) $(empty)
PG_TEST_SUITES := $(subst $(space),,PasskeyTenantTests\.($(PG_STORE_SUITES))/|$(PG_PROCESS_SUITES))
postgres-test:
	@dir=$$(mktemp -d "$(PG_TEST_DIR)/passkey-pg.XXXXXX") && \
	trap 'bash Tests/Support/pg-cluster.sh stop "$$dir"; rm -rf "$$dir"' EXIT && \
	url=$$(bash Tests/Support/pg-cluster.sh start "$$dir") && \
	echo "postgres-test: cluster at $$dir" && \
	PASSKEY_TEST_POSTGRES="$$url" PASSKEY_TEST_POSTGRES_THROWAWAY=1 \
	  SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(PG_TEST_WIDTH) \
	  timeout -k 10 $(PG_TEST_SECONDS) \
	  swift test --skip-build $(SWIFT_BUILD_FLAGS) --disable-xctest --filter '$(PG_TEST_SUITES)'

interop-test:
	PASSKEY_BIN="$$(swift build $(SWIFT_BUILD_FLAGS) --show-bin-path)/passkey" \
	  $(VENV)/bin/python -m pytest -q Tests/Interop Tests/Conformance

## examples-test: the pytest example (a Flask relying party and passkey serve) and bounded distributed Locust runs:
## one tenant, then two on a throwaway PostgreSQL behind nginx (Examples/nginx)
examples-test:
	PASSKEY_BIN="$$(swift build $(SWIFT_BUILD_FLAGS) --show-bin-path)/passkey" \
	  $(VENV)/bin/python -m pytest -q Examples/python
	PASSKEY_BIN="$$(swift build $(SWIFT_BUILD_FLAGS) --show-bin-path)/passkey" LOCUST=$(CURDIR)/$(VENV)/bin/locust \
	  bash Examples/locust/run-distributed.sh
	PASSKEY_BIN="$$(swift build $(SWIFT_BUILD_FLAGS) --show-bin-path)/passkey" LOCUST=$(CURDIR)/$(VENV)/bin/locust \
	  TENANTS=2 LOCUST_SECONDS=5 bash Examples/locust/run-distributed.sh

## browser-test: the page bridge's scenario suite against the test RP, and Web Auth on the local tenant's login
## page (Tests/Browser; also for auth0-server-python and Apache's mod_auth_openidc as regular web applications)
## in Chromium (Playwright, /usr/bin/chromium; also with its own virtual authenticator),
## Firefox ESR (WebDriver BiDi) and WebKitGTK (Selenium, MiniBrowser: no headless mode,
## so the whole run is under xvfb-run)
browser-test:
	PASSKEY_BIN="$$(swift build $(SWIFT_BUILD_FLAGS) --show-bin-path)/passkey" \
	  xvfb-run -a $(VENV)/bin/python -m pytest -q Tests/Browser

## vm-test: `passkey device --uhid` on a real kernel (issue 45): Debian's kernel under qemu (software emulation), this
## machine's / read-only, and in it libfido2's tools, OpenSSH's -sk keys, headless Chromium's own WebAuthn and
## test_uhid.py against the device (Tests/VM/run.sh: one line per step, the logs in .build/vm-test), at most
## VM_TEST_SECONDS; one "skipped" line where qemu, the kernel or busybox-static is missing
VM_TEST_SECONDS ?= 900
VM_TEST = VM_SECONDS=$(VM_TEST_SECONDS) VM_PYTHON=$(abspath $(VENV))/bin/python \
	bash Tests/VM/run.sh "$$(swift build $(SWIFT_BUILD_FLAGS) --show-bin-path)/passkey" .build/vm-test
vm-test:
	$(VM_TEST)

# In make test the VM runs beside the interop and examples stages, which wait on processes and sockets far more than
# they compute (the interop suite used 110 CPU-seconds in 281 s): started before them, its summary and status are
# read after them. The VM is bounded by VM_TEST_SECONDS, so the wait is too.
vm-test-background:
	@mkdir -p .build && rm -f .build/vm-test.status && echo "vm-test: started in the background (.build/vm-test.log)" && \
	  ( { $(VM_TEST); } > .build/vm-test.log 2>&1; echo $$? > .build/vm-test.status ) &

vm-test-wait:
	@while [ ! -f .build/vm-test.status ]; do sleep 2; done; cat .build/vm-test.log; exit "$$(cat .build/vm-test.status)"

# The fuzz binary: the WebAuthn module and its dependencies instrumented for libFuzzer (inline 8-bit
# counters, comparisons) and AddressSanitizer, linked with libFuzzer's driver (SwiftPM gives an
# executable its own main, so the no-main runtime is linked and Fuzz/ calls LLVMFuzzerRunDriver).
FUZZER_NO_MAIN = $(firstword $(wildcard $(dir $(shell readlink -f $$(command -v swift)))../lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a))
FUZZ_SECONDS ?= 60

fuzz-build: setup
	swift build -c release --package-path Fuzz -Xswiftc -sanitize=address \
	  -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp \
	  -Xlinker $(FUZZER_NO_MAIN) -Xlinker -lstdc++

## fuzz: each fuzz target for FUZZ_SECONDS (default 60) from its seeds; a crash is kept in Fuzz/Crashers/<target>
fuzz: fuzz-build
	bash Fuzz/run.sh fuzz $(FUZZ_SECONDS)

## fuzz-regressions: each fuzz target once over its seeds and every crasher found before
fuzz-regressions: fuzz-build
	bash Fuzz/run.sh regressions

## demo: the whole story against a local tenant (signup, login, My Account enrollment, API, logout)
demo: build
	@"$$(swift build $(SWIFT_BUILD_FLAGS) --show-bin-path)/passkey" demo

## bench: the benchmarks, release build (`passkey-bench`, beside `passkey`): by default `targets`, every figure
## with a target beside its baseline, PASS or MISS, its PostgreSQL row on a throwaway cluster (Tests/Support/pg-cluster.sh);
## other figures through BENCH_ARGS, for example BENCH_ARGS="authenticator --only session" or BENCH_ARGS="serve --rounds 5"
BENCH_ARGS ?= targets
bench: setup
	swift build -c release
	@dir=$$(mktemp -d "$(PG_TEST_DIR)/passkey-bench-pg.XXXXXX") && \
	trap 'bash Tests/Support/pg-cluster.sh stop "$$dir"; rm -rf "$$dir"' EXIT && \
	url=$$(bash Tests/Support/pg-cluster.sh start "$$dir") && \
	"$$(swift build -c release --show-bin-path)/passkey-bench" $(BENCH_ARGS) \
	  $(if $(filter targets,$(firstword $(BENCH_ARGS))),--db "$$url")

## growth: how costs grow with size (issue 46), release build: the store at 10^3..10^6 passkeys (made once through the
## bulk import into ~/.cache/softpasskey/growth), the tenant at 10^3..10^6 users on SQLite and on a throwaway PostgreSQL
## cluster, into Documentation/growth.json, drawn by Tools/plot_growth.py into Documentation/growth.png (GROWTH_ARGS: more)
growth: setup
	swift build -c release
	@dir=$$(mktemp -d "$(PG_TEST_DIR)/passkey-growth-pg.XXXXXX") && \
	trap 'bash Tests/Support/pg-cluster.sh stop "$$dir"; rm -rf "$$dir"' EXIT && \
	url=$$(bash Tests/Support/pg-cluster.sh start "$$dir") && \
	"$$(swift build -c release --show-bin-path)/passkey-bench" growth --db "$$url" --out Documentation/growth.json $(GROWTH_ARGS)
	mkdir -p Documentation
	$(VENV)/bin/python Tools/plot_growth.py Documentation/growth.json Documentation/growth.png

## dist: the release in dist/: `passkey` built with the Swift runtime linked statically (DIST_CONFIGURATION, release
## by default), then Dist/package.py: a manylinux wheel of Python/softpasskey carrying it, and
## softpasskey-VERSION-linux-x86_64.tar.gz (bin/, lib/, README.md, LICENSES/, SHA256SUMS), with its debug symbols
## beside, SHA256SUMS and dist.json (sizes, vendored libraries, the glibc needed); a release over 45 MB fails
DIST_CONFIGURATION ?= release
# The link names, in a group, every archive the static runtime's Foundation modules list as their own autolink entries
# (`swift-autolink-extract` of an object importing Foundation and FoundationNetworking with -static-stdlib). `make
# test`'s dist links the objects its debug build compiled against the dynamic runtime, whose entries name only what the
# shared libraries do not carry themselves (no ICU, CoreFoundation or libcurl shim), and SwiftPM compiles a module
# again for the static link only when its inputs' times say so: CI's link once found no ICU where this machine's did.
# The dynamic symbol table keeps only what the binary imports (the static runtime's -export-dynamic put every symbol
# there), and a release is optimized for size: the two took the wheel from 47 MB to under 45.
STATIC_FOUNDATION_LIBRARIES = swiftSynchronization _FoundationICU CoreFoundation Foundation FoundationEssentials \
	FoundationInternationalization FoundationNetworking _CFURLSessionInterface _FoundationCShims _FoundationCollections
DIST_FLAGS = -c $(DIST_CONFIGURATION) --manifest-cache none --static-swift-stdlib \
	-Xlinker --start-group $(foreach library,$(STATIC_FOUNDATION_LIBRARIES),-Xlinker -l$(library)) -Xlinker --end-group \
	-Xlinker --no-export-dynamic $(if $(filter release,$(DIST_CONFIGURATION)),-Xswiftc -Osize)
dist: setup
	@# A newer Package.swift makes SwiftPM plan again, and without its manifest cache Package.swift reads the commit
	@# anew: passkey --version names the commit built (a cached plan keeps the commit it was made with).
	touch Package.swift
	swift build $(SWIFT_BUILD_FLAGS) $(DIST_FLAGS) --product passkey
	$(VENV)/bin/python Dist/package.py --binary "$$(swift build $(SWIFT_BUILD_FLAGS) $(DIST_FLAGS) --show-bin-path)/passkey" \
	  $(if $(filter release,$(DIST_CONFIGURATION)),--max-bytes 45000000)
	@# Linked statically, the modules importing Foundation were compiled against the static runtime's modules, whose
	@# autolink entries name libraries that exist only as archives (CoreFoundation, _Foundation*); SwiftPM does not
	@# compile them back for a dynamic build, whose link then fails. Those objects go, so the next build remakes them.
	grep -l -a -E -- '-l(CoreFoundation|_Foundation)' "$$(swift build $(SWIFT_BUILD_FLAGS) $(DIST_FLAGS) --show-bin-path)"/*.build/*.o \
	  | xargs -r rm -f

## dist-test: the artifacts in dist/ on a bare Debian root (Tests/Dist/bare-root.sh: debootstrap's minbase, cached in
## ~/.cache/softpasskey, with python3 only), at most DIST_TEST_SECONDS
DIST_TEST_SECONDS ?= 600
dist-test: dist
	timeout -k 10 $(DIST_TEST_SECONDS) $(SUDO) bash Tests/Dist/bare-root.sh dist

# The bare root and the wheelhouse are fetched while the build compiles (network and dpkg: little CPU); dist-test
# waits for them, or makes them itself if this failed (its log: .build/bare-root-prepare.log).
bare-root-background: setup
	@mkdir -p .build && ($(SUDO) bash Tests/Dist/bare-root.sh --prepare >.build/bare-root-prepare.log 2>&1 &)

# The symbol graphs DocC reads, emitted by the one debug build that `make test` makes anyway (the flags are
# the same for every step of `test` and `docs`, so nothing is compiled twice). That build carries no DWARF: no
# debugger reads it, and writing and linking it was a good part of the build's time (a crash still names its frames).
SYMBOL_GRAPH_FLAGS := -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc $(CURDIR)/.build/symbol-graphs-all
test docs: SWIFT_BUILD_FLAGS += $(SYMBOL_GRAPH_FLAGS) -debug-info-format none

# docc-catalog MODULE: the module's symbol graph (only its own symbols), then its catalog, warnings as errors.
define docc-catalog
	@rm -rf .build/symbol-graphs-$(1) && mkdir -p .build/symbol-graphs-$(1) && \
	  cp .build/symbol-graphs-all/$(1)*.symbols.json .build/symbol-graphs-$(1)/
	docc convert Sources/$(1)/$(1).docc --additional-symbol-graph-dir .build/symbol-graphs-$(1) \
	  --output-path .build/$(1).doccarchive --warnings-as-errors
endef

# The graphs come from the whole build (build-tests): a `swift build --target` of one module compiled its closure
# again with other settings, and swift-test then compiled it back, some five minutes in all.
docs: build-tests
	$(call docc-catalog,WebAuthn)
	$(call docc-catalog,Auth0Passkeys)
	$(call docc-catalog,PasskeyKit)
	$(call docc-catalog,PasskeyControl)
	$(call docc-catalog,PasskeyPKCS11)
	$(call docc-catalog,PasskeyConformance)
	$(call docc-catalog,PasskeyBrowser)
	$(call docc-catalog,PasskeyCTAP)

## lint: swift-format, strict
lint:
	swift format lint --strict --recursive Sources Tests Package.swift Fuzz/Sources Fuzz/Package.swift

clean:
	rm -rf .build $(VENV) dist
