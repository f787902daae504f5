"""How the kernel's code is compiled and kept: numba's `njit` and `cfunc` as every kernel
module is written with them (`jit`), the compiled code cached in a directory named after the
kernel's sources, and numba's cache files written readable by the user alone and read back
only from a directory of the user's own, never trusted blindly (`cache`). Apart from the
rest because every other part of the kernel is compiled through it and it holds no search:
the rules of the cache are kept in one place. Where the cache is, without importing numba,
is `kernel.where`."""
