/* SPDX-License-Identifier: MIT */
/* bench/func/cyg_stub.c: empty -finstrument-functions hooks in a shared library, so that
 * bench_func_cygp links without libltt and runs untraced; ltt record --functions (libltt.so) and
 * uftrace record (libmcount.so) preload their own hooks ahead of these: the same binary under both
 * (bench/rows/func.sh). */
void __cyg_profile_func_enter(void *fn, void *site);
void __cyg_profile_func_exit(void *fn, void *site);

void __cyg_profile_func_enter(void *fn, void *site)
{
	(void)fn;
	(void)site;
}

void __cyg_profile_func_exit(void *fn, void *site)
{
	(void)fn;
	(void)site;
}
