"""`python -m softpasskey ARGS…`: the `passkey` command of a release wheel (the binary it carries), for an
environment whose scripts directory is not on the PATH."""

from softpasskey.binary import main

main()
