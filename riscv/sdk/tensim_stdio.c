/* picolibc stdio on top of tensim's write call, so kernels can use printf. */
#include <stdio.h>

#include "tensim.h"

static int put(char c, FILE *f)
{
    (void)f;
    tensim_write(1, &c, 1);
    return (unsigned char)c;
}

static int put_err(char c, FILE *f)
{
    (void)f;
    tensim_write(2, &c, 1);
    return (unsigned char)c;
}

static FILE out = FDEV_SETUP_STREAM(put, NULL, NULL, _FDEV_SETUP_WRITE);
static FILE err = FDEV_SETUP_STREAM(put_err, NULL, NULL, _FDEV_SETUP_WRITE);
FILE *const stdin = NULL;
FILE *const stdout = &out;
FILE *const stderr = &err;

void _exit(int code) { tensim_exit(code); }
