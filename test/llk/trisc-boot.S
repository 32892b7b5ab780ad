/* trisc.S for TRISC0 in tt-llk's TRISC boot mode: it resets the mailboxes and releases the
 * other TRISCs itself. */
#define TRISC_BOOT
#include "trisc.S"
