/* PLACEHOLDER until the recorder lands. */
#include <ltt/ltt.h>
__attribute__((visibility("default"))) int ltt_recording_flag;
