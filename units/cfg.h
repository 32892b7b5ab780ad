/* The backend configuration register map, expanded from units/cfg_bh.def and units/cfg_wh.def:
 * per-architecture sizes, field enums and descriptor tables, the configuration state of one tile,
 * fast field accessors, and the decoding of the RISC-V configuration window at 0xFFEF0000.
 *
 * Two arrays (BH:BackendConfiguration.md, WH:BackendConfiguration.md):
 *   Config[2][CFG_STATE_SIZE * 4]   32-bit words, two banks any thread can use; words from
 *                                   GLOBAL_CFGREG_BASE_ADDR32 up exist once (writes reach both)
 *   ThreadConfig[3][THD_STATE_SIZE] 16-bit values, one bank per Tensix thread (written by SETC16)
 * A field is (word, shift, width): value = (array[word] >> shift) & ((1 << width) - 1).
 * Everything here is const; the state lives in struct tt_config, owned by the tile. */
#ifndef TENSIM_UNITS_CFG_H
#define TENSIM_UNITS_CFG_H

#include <stdbool.h>
#include <stdint.h>

#include "tensix_isa.h" /* enum tt_arch_bit: TT_ARCH_BH, TT_ARCH_WH */

/* ---- per-architecture constants --------------------------------------------------------- */

/* CFG_BH_CFG_STATE_SIZE, CFG_BH_THD_STATE_SIZE, CFG_BH_THCON_CFGREG_BASE_ADDR32,
 * CFG_BH_GLOBAL_CFGREG_BASE_ADDR32 (the CFG_CONST lines of cfg_bh.def), and CFG_WH_* likewise. */
enum cfg_const_bh {
#define CFG_CONST(name, value) CFG_BH_##name = (value),
#define CFG_FIELD(NAME, word, shift, width)
#define THCFG_FIELD(NAME, word, shift, width)
#include "cfg_bh.def"
#undef CFG_CONST
#undef CFG_FIELD
#undef THCFG_FIELD
    /* words in one Config bank: CFG_STATE_SIZE counts 128-bit units */
    CFG_BH_WORDS = CFG_BH_CFG_STATE_SIZE * 4
};

enum cfg_const_wh {
#define CFG_CONST(name, value) CFG_WH_##name = (value),
#define CFG_FIELD(NAME, word, shift, width)
#define THCFG_FIELD(NAME, word, shift, width)
#include "cfg_wh.def"
#undef CFG_CONST
#undef CFG_FIELD
#undef THCFG_FIELD
    CFG_WH_WORDS = CFG_WH_CFG_STATE_SIZE * 4
};

/* State arrays are sized for the larger architecture. */
#define CFG_MAX_(a, b) ((int)(a) > (int)(b) ? (int)(a) : (int)(b))
enum {
    CFG_WORDS_MAX = CFG_MAX_(CFG_BH_WORDS, CFG_WH_WORDS),
    THCFG_WORDS_MAX = CFG_MAX_(CFG_BH_THD_STATE_SIZE, CFG_WH_THD_STATE_SIZE)
};
#undef CFG_MAX_

/* ---- field identifiers and descriptors ---------------------------------------------------- */

/* CFGF_BH_<NAME>: Config fields of Blackhole, in cfg_bh.def order. */
enum cfg_field_bh {
#define CFG_CONST(name, value)
#define CFG_FIELD(NAME, word, shift, width) CFGF_BH_##NAME,
#define THCFG_FIELD(NAME, word, shift, width)
#include "cfg_bh.def"
#undef CFG_CONST
#undef CFG_FIELD
#undef THCFG_FIELD
    CFGF_BH_COUNT
};

/* THCFGF_BH_<NAME>: ThreadConfig fields of Blackhole. */
enum thcfg_field_bh {
#define CFG_CONST(name, value)
#define CFG_FIELD(NAME, word, shift, width)
#define THCFG_FIELD(NAME, word, shift, width) THCFGF_BH_##NAME,
#include "cfg_bh.def"
#undef CFG_CONST
#undef CFG_FIELD
#undef THCFG_FIELD
    THCFGF_BH_COUNT
};

enum cfg_field_wh {
#define CFG_CONST(name, value)
#define CFG_FIELD(NAME, word, shift, width) CFGF_WH_##NAME,
#define THCFG_FIELD(NAME, word, shift, width)
#include "cfg_wh.def"
#undef CFG_CONST
#undef CFG_FIELD
#undef THCFG_FIELD
    CFGF_WH_COUNT
};

enum thcfg_field_wh {
#define CFG_CONST(name, value)
#define CFG_FIELD(NAME, word, shift, width)
#define THCFG_FIELD(NAME, word, shift, width) THCFGF_WH_##NAME,
#include "cfg_wh.def"
#undef CFG_CONST
#undef CFG_FIELD
#undef THCFG_FIELD
    THCFGF_WH_COUNT
};

struct cfg_field_desc {
    const char *name; /* register-spec name, e.g. "ALU_FORMAT_SPEC_REG0_SrcA" */
    uint16_t word;    /* index into Config[bank] or ThreadConfig[thread] (NAME_ADDR32) */
    uint8_t shift;    /* NAME_SHAMT */
    uint8_t width;    /* 1..32 (Config), 1..16 (ThreadConfig) */
};

/* Indexed by the enums above. */
extern const struct cfg_field_desc cfg_fields_bh[CFGF_BH_COUNT];
extern const struct cfg_field_desc thcfg_fields_bh[THCFGF_BH_COUNT];
extern const struct cfg_field_desc cfg_fields_wh[CFGF_WH_COUNT];
extern const struct cfg_field_desc thcfg_fields_wh[THCFGF_WH_COUNT];

static inline const struct cfg_field_desc *cfg_field_bh(enum cfg_field_bh id)
{
    return &cfg_fields_bh[id];
}
static inline const struct cfg_field_desc *thcfg_field_bh(enum thcfg_field_bh id)
{
    return &thcfg_fields_bh[id];
}
static inline const struct cfg_field_desc *cfg_field_wh(enum cfg_field_wh id)
{
    return &cfg_fields_wh[id];
}
static inline const struct cfg_field_desc *thcfg_field_wh(enum thcfg_field_wh id)
{
    return &thcfg_fields_wh[id];
}

/* Descriptor of a field that exists on both architectures, for the one arch_bit names
 * (compiles only when NAME is in both tables): CFG_DESC(arch_bit, STATE_RESET_EN). */
#define CFG_DESC(arch_bit, NAME)                                                                  \
    ((arch_bit) == TT_ARCH_WH ? &cfg_fields_wh[CFGF_WH_##NAME] : &cfg_fields_bh[CFGF_BH_##NAME])
#define THCFG_DESC(arch_bit, NAME)                                                                \
    ((arch_bit) == TT_ARCH_WH ? &thcfg_fields_wh[THCFGF_WH_##NAME]                                \
                              : &thcfg_fields_bh[THCFGF_BH_##NAME])

/* ---- state and accessors ------------------------------------------------------------------ */

/* The configuration of one tile. A Wormhole tile uses the first CFG_WH_WORDS / THD_STATE_SIZE
 * entries. cfg[][] holds both banks in full: keeping words >= GLOBAL_CFGREG_BASE_ADDR32 equal
 * in the two banks is the writer's job (the Configuration Unit writes both), not the
 * accessors'. ThreadConfig's padding (16 bits on BH, 112 on WH) is not stored: it reads 0. */
struct tt_config {
    uint32_t cfg[2][CFG_WORDS_MAX];
    uint16_t thread[3][THCFG_WORDS_MAX];
    /* Counts writes: every writer adds one (cfg_set, thcfg_set, the Configuration Unit's
     * writes in units/thcfg.c, REG2FLOP in units/thcon.c), so that what a reader worked out
     * from some words holds while this is unchanged (the matrix unit's memo, units/fpu.c; the
     * sanitizer build checks there that no write went uncounted). */
    uint64_t gen;
};

/* Bits of the field within its word (NAME_MASK). */
static inline uint32_t cfg_field_mask(const struct cfg_field_desc *f)
{
    return (0xFFFFFFFFu >> (32 - f->width)) << f->shift;
}

static inline uint32_t cfg_get(const struct tt_config *c, unsigned bank,
                               const struct cfg_field_desc *f)
{
    return (c->cfg[bank][f->word] & cfg_field_mask(f)) >> f->shift;
}

/* Writes v (bits above the width are dropped) and leaves the rest of the word as it was. */
static inline void cfg_set(struct tt_config *c, unsigned bank, const struct cfg_field_desc *f,
                           uint32_t v)
{
    uint32_t m = cfg_field_mask(f);
    uint32_t *w = &c->cfg[bank][f->word];
    *w = (*w & ~m) | ((v << f->shift) & m);
    c->gen++;
}

static inline uint32_t thcfg_get(const struct tt_config *c, unsigned thread,
                                 const struct cfg_field_desc *f)
{
    return (c->thread[thread][f->word] & cfg_field_mask(f)) >> f->shift;
}

static inline void thcfg_set(struct tt_config *c, unsigned thread, const struct cfg_field_desc *f,
                             uint32_t v)
{
    uint32_t m = cfg_field_mask(f);
    uint16_t *w = &c->thread[thread][f->word];
    *w = (uint16_t)((*w & ~m) | ((v << f->shift) & m));
    c->gen++;
}

/* ---- per-architecture view, by-name lookup ------------------------------------------------- */

/* Everything the code needs to treat the two architectures alike. Window offsets are bytes
 * from CFG_WINDOW_BASE. */
struct cfg_arch_map {
    const struct cfg_field_desc *cfg, *thcfg; /* descriptor tables */
    uint16_t ncfg, nthcfg;                    /* their lengths */
    uint16_t cfg_words;                       /* words per Config bank: CFG_STATE_SIZE * 4 */
    uint16_t thcfg_words;                     /* THD_STATE_SIZE */
    uint16_t thcon_base, global_base;         /* THCON_ / GLOBAL_CFGREG_BASE_ADDR32 */
    uint16_t bank_off[2];                     /* Config[0], Config[1] */
    uint16_t dual_off;                        /* ConfigDualWrite; valid when has_dual_write */
    bool has_dual_write;                      /* Blackhole only */
    uint16_t thread_off;                      /* ThreadConfig[0][0] */
    uint16_t thread_slot;                     /* bytes per ThreadConfig entry: 4 BH, 16 WH */
};

/* TT_ARCH_WH gives Wormhole B0; anything else Blackhole. */
const struct cfg_arch_map *cfg_arch(unsigned arch_bit);

/* Config / ThreadConfig field by its name on one architecture; NULL if none. Linear search:
 * for tools and tests, never the per-cycle path. */
const struct cfg_field_desc *cfg_find(unsigned arch_bit, const char *name);
const struct cfg_field_desc *thcfg_find(unsigned arch_bit, const char *name);

/* ---- the RISC-V configuration window ---------------------------------------------------- */

#define CFG_WINDOW_BASE 0xFFEF0000u /* TENSIX_CFG_BASE (spec/memory-map.md section 2) */
#define CFG_WINDOW_SIZE 0x00010000u /* the region 0xFFEF0000..0xFFEFFFFF */

enum cfg_win {
    CFG_WIN_NONE,   /* inside the window but past the last array */
    CFG_WIN_CONFIG, /* Config[sel][index] */
    CFG_WIN_DUAL,   /* ConfigDualWrite[index] (BH): writes reach both banks, reads bank 0 */
    CFG_WIN_THREAD  /* ThreadConfig[sel][index] */
};

struct cfg_win_hit {
    enum cfg_win kind;
    unsigned sel;   /* Config bank 0/1 or Tensix thread 0..2; 0 for DUAL and NONE */
    unsigned index; /* word of the bank, or ThreadConfig entry k */
    unsigned byte;  /* byte within the 4-byte word, or within the ThreadConfig slot (the
                       value is bytes 0..1, the rest is padding) */
};

/* Which array and entry `offset` (bytes from CFG_WINDOW_BASE) lands in; also stored in *hit. */
enum cfg_win cfg_window_decode(unsigned arch_bit, uint32_t offset, struct cfg_win_hit *hit);

#endif
