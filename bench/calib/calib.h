/* Where the calibration kernel (calib.c) leaves its results, for it and for the host programs
 * that read them (calibrate.c, test/test_calibrate.c). Result i, cycles per operation times 100,
 * is the word at CALIB_OUT + 4 * i; calibrate.c's figure list names the slots in order. */
#ifndef CALIB_H
#define CALIB_H

#define CALIB_OUT 0x3F000u   /* results, in L1 above every core's window */
#define CALIB_SLOT_LOCAL_LW 5u /* independent local data RAM lw */

/* whole-kernel figures (issue 16 item 3): where bench/calib/{pack,unpack,math}.c leave their
 * results, one block each, well clear of CALIB_OUT's rows and of the data the kernels use
 * (0x40000 and up). Words are raw cycles, or cycles x100 where calibrate.c says so. */
#define CALIB_WK_PACK 0x3F400u   /* 6 words: pack rows, cycles */
#define CALIB_WK_UNPACK 0x3F440u /* 2 words: unpack rows, cycles x100 */
#define CALIB_WK_MATH 0x3F480u   /* 5 words: math rows, cycles */

/* Wormhole's documented L1 figures (bench/calib/calib_wh.S, run on a Wormhole tile): 3 words,
 * cycles per operation x100. An assembler constant too, so no C here. */
#define CALIB_WH_OUT 0x3F500

#endif
