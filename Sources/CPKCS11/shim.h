#ifndef CPKCS11_SHIM_H
#define CPKCS11_SHIM_H

// The PKCS#11 2.40 interface as p11-kit's header declares it (types and constants only: modules
// are loaded with dlopen, never linked).
#include <p11-kit/pkcs11.h>
#include <dlfcn.h>

#endif
