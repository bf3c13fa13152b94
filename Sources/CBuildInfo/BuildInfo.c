#include "CBuildInfo.h"

// Both macros are defined by Package.swift for this file only, so a new commit recompiles nothing else.
const char *softpasskey_version(void) { return SOFTPASSKEY_VERSION; }

const char *softpasskey_commit(void) { return SOFTPASSKEY_COMMIT; }
