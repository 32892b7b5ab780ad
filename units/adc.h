/* Address counters (WH:ADCs.md): per thread, one set for each unpacker and one shared by the
 * packers, each with two channels of X/Y/Z/W counters and their checkpoints (_Cr). Counter
 * widths: X 18 bits, Y 13, Z 8, W 8. */
#ifndef TENSIM_UNITS_ADC_H
#define TENSIM_UNITS_ADC_H

#include <stdint.h>

enum adc_counter { ADC_X, ADC_Y, ADC_Z, ADC_W };

struct adc_channel {
    uint32_t v[4];  /* X, Y, Z, W */
    uint32_t cr[4]; /* checkpoints */
};

struct adc {
    struct adc_channel ch[2];
};

struct adc_thread {
    struct adc unpack[2];
    struct adc pack;
};

static const uint32_t adc_width_mask[4] = {0x3FFFF, 0x1FFF, 0xFF, 0xFF};

static inline void adc_set(struct adc *a, unsigned ch, enum adc_counter c, uint32_t v)
{
    a->ch[ch].v[c] = a->ch[ch].cr[c] = v & adc_width_mask[c];
}

static inline void adc_inc(struct adc *a, unsigned ch, enum adc_counter c, uint32_t inc)
{
    a->ch[ch].v[c] = (a->ch[ch].v[c] + inc) & adc_width_mask[c];
}

/* ADDRCR*: checkpoint += inc, counter = checkpoint */
static inline void adc_cr_add(struct adc *a, unsigned ch, enum adc_counter c, uint32_t inc)
{
    a->ch[ch].cr[c] = (a->ch[ch].cr[c] + inc) & adc_width_mask[c];
    a->ch[ch].v[c] = a->ch[ch].cr[c];
}

#endif
