#ifndef CSTATFS_SHIM_H
#define CSTATFS_SHIM_H

/// fstatfs(2) and struct statfs, which Swift's Glibc module does not import (it has statvfs,
/// which lacks f_type).
#include <sys/statfs.h>

#endif
