/* SPDX-License-Identifier: MIT */
/* NumPy's C API for the module (the one file that imports it; colbuf.c uses it). */
#define PY_ARRAY_UNIQUE_SYMBOL pyltt_ARRAY_API
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include "pyltt.h"
#include <numpy/arrayobject.h>

int pyltt_numpy_init(void)
{
	import_array1(-1);
	return 0;
}
