#include "cfg.h"

#include <string.h>

/* Descriptor tables: one entry per CFG_FIELD / THCFG_FIELD line, in .def order (= enum order). */
const struct cfg_field_desc cfg_fields_bh[CFGF_BH_COUNT] = {
#define CFG_CONST(name, value)
#define CFG_FIELD(NAME, word, shift, width) {#NAME, word, shift, width},
#define THCFG_FIELD(NAME, word, shift, width)
#include "cfg_bh.def"
#undef CFG_CONST
#undef CFG_FIELD
#undef THCFG_FIELD
};

const struct cfg_field_desc thcfg_fields_bh[THCFGF_BH_COUNT] = {
#define CFG_CONST(name, value)
#define CFG_FIELD(NAME, word, shift, width)
#define THCFG_FIELD(NAME, word, shift, width) {#NAME, word, shift, width},
#include "cfg_bh.def"
#undef CFG_CONST
#undef CFG_FIELD
#undef THCFG_FIELD
};

const struct cfg_field_desc cfg_fields_wh[CFGF_WH_COUNT] = {
#define CFG_CONST(name, value)
#define CFG_FIELD(NAME, word, shift, width) {#NAME, word, shift, width},
#define THCFG_FIELD(NAME, word, shift, width)
#include "cfg_wh.def"
#undef CFG_CONST
#undef CFG_FIELD
#undef THCFG_FIELD
};

const struct cfg_field_desc thcfg_fields_wh[THCFGF_WH_COUNT] = {
#define CFG_CONST(name, value)
#define CFG_FIELD(NAME, word, shift, width)
#define THCFG_FIELD(NAME, word, shift, width) {#NAME, word, shift, width},
#include "cfg_wh.def"
#undef CFG_CONST
#undef CFG_FIELD
#undef THCFG_FIELD
};

/* Window layout (BH:BackendConfiguration.md, WH:BackendConfiguration.md): the arrays follow one
 * another from TENSIX_CFG_BASE. Blackhole: Config[2][CFG_STATE_SIZE * 4] words, then
 * ConfigDualWrite[CFG_STATE_SIZE * 4], then ThreadConfig[3][THD_STATE_SIZE] of {uint16_t Value,
 * Padding} (4-byte slots). Wormhole B0 has no ConfigDualWrite and its ThreadConfig slots are
 * {uint16_t Value, Padding[7]} (16 bytes). Resulting offsets: spec/memory-map.md section 2. */
static const struct cfg_arch_map blackhole = {
    .cfg = cfg_fields_bh,
    .thcfg = thcfg_fields_bh,
    .ncfg = CFGF_BH_COUNT,
    .nthcfg = THCFGF_BH_COUNT,
    .cfg_words = CFG_BH_WORDS,
    .thcfg_words = CFG_BH_THD_STATE_SIZE,
    .thcon_base = CFG_BH_THCON_CFGREG_BASE_ADDR32,
    .global_base = CFG_BH_GLOBAL_CFGREG_BASE_ADDR32,
    .bank_off = {0, CFG_BH_WORDS * 4},
    .dual_off = 2 * CFG_BH_WORDS * 4,
    .has_dual_write = true,
    .thread_off = 3 * CFG_BH_WORDS * 4,
    .thread_slot = 4,
};

static const struct cfg_arch_map wormhole = {
    .cfg = cfg_fields_wh,
    .thcfg = thcfg_fields_wh,
    .ncfg = CFGF_WH_COUNT,
    .nthcfg = THCFGF_WH_COUNT,
    .cfg_words = CFG_WH_WORDS,
    .thcfg_words = CFG_WH_THD_STATE_SIZE,
    .thcon_base = CFG_WH_THCON_CFGREG_BASE_ADDR32,
    .global_base = CFG_WH_GLOBAL_CFGREG_BASE_ADDR32,
    .bank_off = {0, CFG_WH_WORDS * 4},
    .dual_off = 0,
    .has_dual_write = false,
    .thread_off = 2 * CFG_WH_WORDS * 4,
    .thread_slot = 16,
};

/* The whole layout must fit the 64 KiB window and the uint16_t fields above. */
_Static_assert(3 * CFG_BH_WORDS * 4 + 3 * CFG_BH_THD_STATE_SIZE * 4 <= CFG_WINDOW_SIZE,
               "Blackhole arrays fit the configuration window");
_Static_assert(2 * CFG_WH_WORDS * 4 + 3 * CFG_WH_THD_STATE_SIZE * 16 <= CFG_WINDOW_SIZE,
               "Wormhole arrays fit the configuration window");

const struct cfg_arch_map *cfg_arch(unsigned arch_bit)
{
    return arch_bit == TT_ARCH_WH ? &wormhole : &blackhole;
}

static const struct cfg_field_desc *find(const struct cfg_field_desc *t, unsigned n,
                                         const char *name)
{
    for (unsigned i = 0; i < n; i++)
        if (strcmp(t[i].name, name) == 0)
            return &t[i];
    return NULL;
}

const struct cfg_field_desc *cfg_find(unsigned arch_bit, const char *name)
{
    const struct cfg_arch_map *m = cfg_arch(arch_bit);
    return find(m->cfg, m->ncfg, name);
}

const struct cfg_field_desc *thcfg_find(unsigned arch_bit, const char *name)
{
    const struct cfg_arch_map *m = cfg_arch(arch_bit);
    return find(m->thcfg, m->nthcfg, name);
}

enum cfg_win cfg_window_decode(unsigned arch_bit, uint32_t offset, struct cfg_win_hit *hit)
{
    const struct cfg_arch_map *m = cfg_arch(arch_bit);
    uint32_t bank_bytes = m->cfg_words * 4u;
    uint32_t thread_bytes = 3u * m->thcfg_words * m->thread_slot;
    struct cfg_win_hit h = {CFG_WIN_NONE, 0, 0, 0};

    if (offset - m->bank_off[0] < bank_bytes || offset - m->bank_off[1] < bank_bytes) {
        h.sel = offset - m->bank_off[0] < bank_bytes ? 0 : 1;
        uint32_t rel = offset - m->bank_off[h.sel];
        h.kind = CFG_WIN_CONFIG;
        h.index = rel / 4;
        h.byte = rel % 4;
    } else if (m->has_dual_write && offset - m->dual_off < bank_bytes) {
        uint32_t rel = offset - m->dual_off;
        h.kind = CFG_WIN_DUAL;
        h.index = rel / 4;
        h.byte = rel % 4;
    } else if (offset - m->thread_off < thread_bytes) {
        uint32_t rel = offset - m->thread_off;
        uint32_t slot = rel / m->thread_slot;
        h.kind = CFG_WIN_THREAD;
        h.sel = slot / m->thcfg_words;
        h.index = slot % m->thcfg_words;
        h.byte = rel % m->thread_slot;
    }
    if (hit)
        *hit = h;
    return h.kind;
}
