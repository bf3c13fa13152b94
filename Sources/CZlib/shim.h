#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H

#include <zlib.h>

/// deflateInit2 and inflateInit2 are macros, which Swift cannot call: these are the same calls.
static inline int czlib_deflate_init_raw(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
}

static inline int czlib_inflate_init_raw(z_stream *stream) {
    return inflateInit2(stream, -15);
}

#endif
