/* Where the calibration kernel (calib.c) leaves its results, for it and for the host programs
 * that read them (calibrate.c, test/test_calibrate.c). Result i, cycles per operation times 100,
 * is the word at CALIB_OUT + 4 * i; calibrate.c's figure list names the slots in order. */
#ifndef CALIB_H
#define CALIB_H

#define CALIB_OUT 0x3F000u   /* results, in L1 above every core's window */
#define CALIB_SLOT_LOCAL_LW 5u /* independent local data RAM lw */

#endif
