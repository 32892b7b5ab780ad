/* Stands in for tt-llk's common/inc/ckernel_sfpu.h in builds with the stock compiler.
 *
 * The real header includes sfpi.h and every SFPU kernel, which need SFPI's compiler (its
 * __builtin_rvtt_* vector builtins); every test includes it through params.h and
 * cmath_common.h whether it runs SFPU code or not. This stub keeps the header's other
 * includes, so tests without SFPU code build; SFPU tests need --sfpi. It is placed in a
 * symlink overlay of the user's tt-llk tree (the directory of the files that include it),
 * never in the tree itself. */
#pragma once

#include <limits>

#include "ckernel.h"
#include "ckernel_defs.h"
#include "ckernel_globals.h"
