# SoftPasskey: `make demo` runs the main job, `make test` runs every test.
# Both install what they need first (Debian packages with apt-get, Python tools into .venv).

SHELL := /bin/bash
APT_PACKAGES := pkg-config libcbor-dev libssl-dev libcurl4-openssl-dev libpsl-dev publicsuffix libsqlite3-dev python3 python3-venv
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
VENV := .venv
SWIFT_BUILD_FLAGS ?=

.PHONY: setup apt-packages python-tools build test swift-test interop-test demo docs lint clean

## setup: install missing Debian packages and the Python test tools (idempotent, quiet when done)
setup: apt-packages python-tools

apt-packages:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "setup: installing$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi

python-tools: $(VENV)/.installed

$(VENV)/.installed: Tests/Interop/requirements.txt
	@echo "setup: creating $(VENV) with the interop tools"
	@python3 -m venv $(VENV)
	@$(VENV)/bin/pip install -q --disable-pip-version-check -r Tests/Interop/requirements.txt
	@touch $@

## build: compile everything (debug)
build: setup
	swift build $(SWIFT_BUILD_FLAGS)

## test: style, documentation, the Swift test suites, then the Python interop suite against the built CLI
test: build lint docs swift-test interop-test

swift-test:
	swift test $(SWIFT_BUILD_FLAGS)

interop-test:
	PASSKEY_BIN="$$(swift build $(SWIFT_BUILD_FLAGS) --show-bin-path)/passkey" \
	  $(VENV)/bin/python -m pytest -q Tests/Interop

## demo: the main job: decode and verify the W3C "packed ES256" vector (Examples/w3c-packed-es256)
demo: build
	@bin="$$(swift build $(SWIFT_BUILD_FLAGS) --show-bin-path)/passkey"; cd Examples/w3c-packed-es256 && \
	echo "== passkey inspect registration.json" && "$$bin" inspect registration.json && \
	echo && echo "== passkey verify registration (packed attestation, chained to the W3C test root)" && \
	"$$bin" verify registration --response registration.json --challenge wRhKX934BF4T3Ef1S2H1pla2ZrWQGPFthw6SVumVIBI \
	  --origin https://example.org --rp-id example.org --trust-anchor attestation-root.pem && \
	echo && echo "== passkey verify authentication (the assertion, with the key just registered)" && \
	"$$bin" verify authentication --response authentication.json --challenge sRBvpGpXvvF4FRHAVX3ImKA0E9Xw8X0kRjDBlMfhrbU \
	  --origin https://example.org --rp-id example.org \
	  --public-key pQECAyYgASFYIBzyfyXaWRIIpCOcLjJPEE9YVSVHmint7t2DD0jneurlIlggWeS32mwBBuIGzjkMk6uYoVpew4h-V_DMK-zoA7kgxCM

## docs: build the DocC catalogs from the libraries' symbol graphs; a broken link fails the build
docs: setup
	@swift build --target WebAuthn --scratch-path .build/docs-build -Xswiftc -emit-symbol-graph \
	  -Xswiftc -emit-symbol-graph-dir -Xswiftc $(CURDIR)/.build/symbol-graphs >/dev/null
	docc convert Sources/WebAuthn/WebAuthn.docc --additional-symbol-graph-dir .build/symbol-graphs \
	  --output-path .build/WebAuthn.doccarchive --warnings-as-errors
	@swift build --target Auth0Passkeys --scratch-path .build/docs-build -Xswiftc -emit-symbol-graph \
	  -Xswiftc -emit-symbol-graph-dir -Xswiftc $(CURDIR)/.build/symbol-graphs-all >/dev/null
	@rm -rf .build/symbol-graphs-auth0 && mkdir -p .build/symbol-graphs-auth0 && \
	  cp .build/symbol-graphs-all/Auth0Passkeys*.symbols.json .build/symbol-graphs-auth0/
	docc convert Sources/Auth0Passkeys/Auth0Passkeys.docc --additional-symbol-graph-dir .build/symbol-graphs-auth0 \
	  --output-path .build/Auth0Passkeys.doccarchive --warnings-as-errors

## lint: swift-format, strict
lint:
	swift format lint --strict --recursive Sources Tests Package.swift

clean:
	rm -rf .build $(VENV)
