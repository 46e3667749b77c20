/* SPDX-License-Identifier: MIT */
/* tests/func/func_dl_lib.c: a library func_jmp.c's "dl" mode loads with dlopen (tests/e2e/functions_jmp.sh):
 * built with -pg, so its functions are recorded through the preloaded libltt; dl_outer() calls
 * dl_inner() once. */
#define NI __attribute__((noinline, noclone))

volatile unsigned dl_sink;

NI void dl_inner(void)
{
	dl_sink++;
}

NI void dl_outer(void)
{
	dl_inner();
	dl_sink++;
}
