#ifndef CBUILDINFO_H
#define CBUILDINFO_H

/// SoftPasskey's version: the one line of the repository's VERSION file.
const char *_Nonnull softpasskey_version(void);

/// The git commit built from, `-dirty` appended when the work tree differed, or `unknown` outside git.
const char *_Nonnull softpasskey_commit(void);

#endif
