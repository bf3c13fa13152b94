#ifndef CCBOR_SHIM_H
#define CCBOR_SHIM_H

#include <cbor.h>

#endif
