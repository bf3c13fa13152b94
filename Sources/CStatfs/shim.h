#ifndef CSTATFS_SHIM_H
#define CSTATFS_SHIM_H

/// fstatfs(2) and struct statfs, which Swift's Glibc module does not import (it has statvfs,
/// which lacks f_type).
#include <sys/statfs.h>

/// syncfs(2) (glibc 2.14, Linux 2.6.39), which <unistd.h> declares only under _GNU_SOURCE, so
/// Swift's Glibc module does not import it: one flush of a whole file system, what commits many
/// new files with one wait for the disk rather than one fsync each.
extern int syncfs(int fd);

#endif
