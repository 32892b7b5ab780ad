/* The backend configuration map (units/cfg_bh.def, units/cfg_wh.def, units/cfg.{h,c}):
 * structure of both tables, sample fields against the numbers in shared/ref/{bh,wh}/
 * tensix_regs.json, the field accessors, and the RISC-V window decoder. */
#include <criterion/criterion.h>
#include <string.h>

#include "../units/cfg.h"

static const unsigned arches[] = {TT_ARCH_BH, TT_ARCH_WH};

struct expect {
    const char *name;
    unsigned word, shift, width;
};

/* Checks one table: widths in 1..bits, fields inside their word, words below nwords, no two
 * fields of a word sharing a bit, names unique. */
static void check_table(const char *what, const struct cfg_field_desc *t, unsigned n,
                        unsigned bits, unsigned nwords)
{
    uint32_t used[CFG_WORDS_MAX] = {0};
    cr_assert(nwords <= CFG_WORDS_MAX);
    for (unsigned i = 0; i < n; i++) {
        const struct cfg_field_desc *f = &t[i];
        cr_assert(f->width >= 1 && f->width <= bits, "%s %s: width %u", what, f->name,
                  f->width);
        cr_assert(f->shift + f->width <= bits, "%s %s: bits %u..%u past %u", what, f->name,
                  f->shift, f->shift + f->width - 1, bits);
        cr_assert(f->word < nwords, "%s %s: word %u not below %u", what, f->name, f->word,
                  nwords);
        uint32_t m = cfg_field_mask(f);
        cr_expect((used[f->word] & m) == 0, "%s %s overlaps another field of word %u", what,
                  f->name, f->word);
        used[f->word] |= m;
        for (unsigned j = 0; j < i; j++)
            cr_expect(strcmp(t[j].name, f->name) != 0, "%s: %s twice", what, f->name);
    }
}

Test(cfg, tables_are_well_formed)
{
    for (unsigned a = 0; a < 2; a++) {
        const struct cfg_arch_map *m = cfg_arch(arches[a]);
        check_table("Config", m->cfg, m->ncfg, 32, m->cfg_words);
        check_table("ThreadConfig", m->thcfg, m->nthcfg, 16, m->thcfg_words);
        /* A name is in one array only, so cfg_find/thcfg_find never disagree. */
        for (unsigned i = 0; i < m->nthcfg; i++)
            cr_expect(cfg_find(arches[a], m->thcfg[i].name) == NULL, "%s in both arrays",
                      m->thcfg[i].name);
    }
}

Test(cfg, sizes_and_counts)
{
    /* spec/memory-map.md section 2; CFG_STATE_SIZE counts 128-bit units */
    cr_expect_eq(CFG_BH_CFG_STATE_SIZE, 56);
    cr_expect_eq(CFG_BH_THD_STATE_SIZE, 68);
    cr_expect_eq(CFG_BH_WORDS, 224);
    cr_expect_eq(CFG_WH_CFG_STATE_SIZE, 47);
    cr_expect_eq(CFG_WH_THD_STATE_SIZE, 57);
    cr_expect_eq(CFG_WH_WORDS, 188);
    cr_expect_eq(CFG_WORDS_MAX, 224);
    cr_expect_eq(THCFG_WORDS_MAX, 68);
    cr_expect_eq(CFG_BH_THCON_CFGREG_BASE_ADDR32, 64);
    cr_expect_eq(CFG_BH_GLOBAL_CFGREG_BASE_ADDR32, 180);
    cr_expect_eq(CFG_WH_THCON_CFGREG_BASE_ADDR32, 52);
    cr_expect_eq(CFG_WH_GLOBAL_CFGREG_BASE_ADDR32, 152);
    /* field counts of the two JSON files */
    cr_expect_eq(CFGF_BH_COUNT, 597);
    cr_expect_eq(THCFGF_BH_COUNT, 223);
    cr_expect_eq(CFGF_WH_COUNT, 530);
    cr_expect_eq(THCFGF_WH_COUNT, 261);
    const struct cfg_arch_map *bh = cfg_arch(TT_ARCH_BH), *wh = cfg_arch(TT_ARCH_WH);
    cr_expect_eq(bh->ncfg, CFGF_BH_COUNT);
    cr_expect_eq(bh->cfg_words, 224);
    cr_expect_eq(bh->thcfg_words, 68);
    cr_expect_eq(wh->nthcfg, THCFGF_WH_COUNT);
    cr_expect_eq(wh->cfg_words, 188);
    cr_expect_eq(wh->global_base, 152);
}

/* Every THCON_* field lies in [THCON_CFGREG_BASE_ADDR32, GLOBAL_CFGREG_BASE_ADDR32), and the
 * section starts with one: the evidence for the two bases in the JSON. */
Test(cfg, thcon_section_bounds)
{
    for (unsigned a = 0; a < 2; a++) {
        const struct cfg_arch_map *m = cfg_arch(arches[a]);
        unsigned first = m->cfg_words;
        for (unsigned i = 0; i < m->ncfg; i++) {
            const struct cfg_field_desc *f = &m->cfg[i];
            bool thcon = strncmp(f->name, "THCON_", 6) == 0;
            bool inside = f->word >= m->thcon_base && f->word < m->global_base;
            cr_expect(thcon == inside, "%s at word %u", f->name, f->word);
            if (thcon && f->word < first)
                first = f->word;
        }
        cr_expect_eq(first, m->thcon_base);
    }
}

static void expect_fields(unsigned arch_bit, bool thread, const struct expect *e, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        const struct cfg_field_desc *f =
            thread ? thcfg_find(arch_bit, e[i].name) : cfg_find(arch_bit, e[i].name);
        cr_assert(f, "arch %u: no field %s", arch_bit, e[i].name);
        cr_expect_str_eq(f->name, e[i].name);
        cr_expect(f->word == e[i].word && f->shift == e[i].shift && f->width == e[i].width,
                  "arch %u %s: word %u shift %u width %u, want %u %u %u", arch_bit, e[i].name,
                  f->word, f->shift, f->width, e[i].word, e[i].shift, e[i].width);
    }
}

/* Numbers read in shared/ref/bh/tensix_regs.json. */
Test(cfg, blackhole_fields_match_the_json)
{
    static const struct expect thread[] = {
        {"CFG_STATE_ID_StateID", 0, 0, 1},
        {"DEST_TARGET_REG_CFG_MATH_Offset", 1, 0, 12},
        {"SFPU_DEST_FMT_Base", 4, 1, 4},
        {"ADDR_MOD_DST_SEC7_FidelityClear", 35, 15, 1},
        {"UNPACK_MISC_CFG_CfgContextCntReset_0", 41, 4, 1},
        {"TENSIX_TRISC_SYNC_TrackTensixInstructions", 56, 4, 1},
        {"TENSIX_CSR_CONFIG_RawBusyStatus", 67, 0, 1},
    };
    static const struct expect config[] = {
        {"ALU_FORMAT_SPEC_REG_SrcA_val", 0, 0, 4},
        {"ALU_FORMAT_SPEC_REG_Dstacc_override", 0, 14, 1},
        {"ALU_FORMAT_SPEC_REG0_SrcA", 1, 17, 4},
        {"ALU_FORMAT_SPEC_REG1_SrcB", 1, 21, 4},
        {"ALU_FORMAT_SPEC_REG2_Dstacc", 1, 25, 4},
        {"ALU_ACC_CTRL_INT8_math_enabled", 1, 31, 1},
        {"DISABLE_RISC_BP_Disable_bmp_clear_ncrisc", 2, 31, 1},
        {"RISC_DEST_ACCESS_CTRL_SEC2_fmt", 3, 26, 3},
        {"STATE_RESET_EN", 4, 0, 1},
        {"PCK0_ADDR_BASE_REG_0_Base", 16, 0, 18},
        {"PACK_COUNTERS_SEC0_pack_xys_per_tile", 28, 16, 7},
        {"UNP0_ADDR_CTRL_ZW_REG_0_Wstride", 45, 16, 16},
        {"UNP0_ADDR_BASE_REG_0_Base", 48, 0, 18},
        {"THCON_SEC0_REG0_TileDescriptor", 64, 0, 32},
        {"THCON_SEC0_REG1_Out_data_format", 70, 4, 4},
        {"THCON_SEC0_REG2_Unpack_limit_address", 74, 0, 17},
        {"THCON_SEC0_REG7_Unpack_data_format_cntx0", 92, 16, 4},
        {"THCON_SEC1_REG11_Metadata_cntxt_switch_unpacr_count", 159, 8, 8},
        {"DEST_TARGET_REG_CFG_PACK_SEC0_Offset", 180, 0, 12},
        {"RISCV_IC_INVALIDATE_InvalidateAll", 185, 0, 5},
        {"PRNG_SEED_Seed_Val", 186, 0, 32},
        {"CHICKEN_BITS_sfpu_scbd_disable", 222, 0, 1},
    };
    expect_fields(TT_ARCH_BH, true, thread, sizeof thread / sizeof thread[0]);
    expect_fields(TT_ARCH_BH, false, config, sizeof config / sizeof config[0]);
    /* the enums name the same entries */
    cr_expect_eq(thcfg_field_bh(THCFGF_BH_CFG_STATE_ID_StateID),
                 thcfg_find(TT_ARCH_BH, "CFG_STATE_ID_StateID"));
    cr_expect_eq(cfg_field_bh(CFGF_BH_PRNG_SEED_Seed_Val),
                 cfg_find(TT_ARCH_BH, "PRNG_SEED_Seed_Val"));
    cr_expect_eq(CFG_DESC(TT_ARCH_BH, STATE_RESET_EN), cfg_find(TT_ARCH_BH, "STATE_RESET_EN"));
}

/* Numbers read in shared/ref/wh/tensix_regs.json. */
Test(cfg, wormhole_fields_match_the_json)
{
    static const struct expect thread[] = {
        {"CFG_STATE_ID_StateID", 0, 0, 1},
        {"DEST_TARGET_REG_CFG_MATH_Offset", 1, 0, 12},
        {"ADDR_MOD_SET_Base", 2, 0, 1},
        {"ADDR_MOD_AB_SEC7_BiasCntClear", 22, 4, 1},
        {"CG_CTRL_EN_Hyst", 43, 2, 7},
        {"FP16A_FORCE_Enable", 56, 0, 1},
    };
    static const struct expect config[] = {
        {"ALU_FORMAT_SPEC_REG0_SrcA", 1, 17, 4},
        {"STATE_RESET_EN", 4, 0, 1},
        {"PCK0_ADDR_CTRL_ZW_REG_0_Wstride", 9, 12, 16},
        {"PCK0_ADDR_BASE_REG_0_Base", 12, 0, 16},
        {"UNP0_ADDR_BASE_REG_1_Base", 40, 16, 16},
        {"THCON_SEC0_REG0_TileDescriptor", 52, 0, 32},
        {"THCON_SEC0_REG1_All_pack_disable_zero_compress", 58, 17, 4},
        {"THCON_SEC1_REG9_Pack_1_3_fifo_size", 131, 0, 17},
        {"DEST_TARGET_REG_CFG_PACK_SEC0_Offset", 152, 0, 12},
        {"TRISC_RESET_PC_SEC0_PC", 158, 0, 32},
        {"PRNG_SEED_Seed_Val", 164, 0, 32},
        {"RISC_PREFETCH_CTRL_Max_Req_Count", 186, 5, 8},
    };
    expect_fields(TT_ARCH_WH, true, thread, sizeof thread / sizeof thread[0]);
    expect_fields(TT_ARCH_WH, false, config, sizeof config / sizeof config[0]);
    cr_expect_eq(thcfg_field_wh(THCFGF_WH_ADDR_MOD_SET_Base),
                 thcfg_find(TT_ARCH_WH, "ADDR_MOD_SET_Base"));
    cr_expect_eq(cfg_field_wh(CFGF_WH_TRISC_RESET_PC_SEC0_PC),
                 cfg_find(TT_ARCH_WH, "TRISC_RESET_PC_SEC0_PC"));
    cr_expect_eq(CFG_DESC(TT_ARCH_WH, STATE_RESET_EN), cfg_find(TT_ARCH_WH, "STATE_RESET_EN"));
    cr_expect_eq(THCFG_DESC(TT_ARCH_WH, CFG_STATE_ID_StateID)->word, 0);
}

Test(cfg, find_misses)
{
    cr_expect_null(cfg_find(TT_ARCH_BH, "NO_SUCH_FIELD"));
    cr_expect_null(cfg_find(TT_ARCH_BH, ""));
    cr_expect_null(cfg_find(TT_ARCH_BH, "CFG_STATE_ID_StateID")); /* ThreadConfig only */
    cr_expect_null(thcfg_find(TT_ARCH_BH, "STATE_RESET_EN"));     /* Config only */
    /* fields of one architecture only */
    cr_expect_null(cfg_find(TT_ARCH_BH, "TRISC_RESET_PC_SEC0_PC"));
    cr_expect_null(cfg_find(TT_ARCH_WH, "CHICKEN_BITS_sfpu_scbd_disable"));
    cr_expect_null(thcfg_find(TT_ARCH_BH, "ADDR_MOD_SET_Base"));
    cr_expect_null(thcfg_find(TT_ARCH_WH, "SFPU_DEST_FMT_Base"));
}

/* A cheap, fixed pseudo-random sequence (xorshift32). */
static uint32_t next(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

/* For every field: fill the whole state with a pattern, write the field, and check that it
 * reads back and that nothing else in the state changed. */
Test(cfg, set_get_round_trip_leaves_the_rest_alone)
{
    static struct tt_config c, before;
    uint32_t seed = 0x12345678u;
    for (unsigned a = 0; a < 2; a++) {
        const struct cfg_arch_map *m = cfg_arch(arches[a]);
        for (unsigned i = 0; i < m->ncfg + m->nthcfg; i++) {
            bool th = i >= m->ncfg;
            const struct cfg_field_desc *f = th ? &m->thcfg[i - m->ncfg] : &m->cfg[i];
            unsigned sel = i % (th ? 3 : 2);
            uint32_t all = 0xFFFFFFFFu >> (32 - f->width);
            uint32_t values[] = {all, 0, next(&seed) & all};
            for (unsigned k = 0; k < 3; k++) {
                /* background: zeros, ones, then random bytes */
                uint8_t *bytes = (uint8_t *)&c;
                for (size_t b = 0; b < sizeof c; b++)
                    bytes[b] = k == 0 ? 0 : k == 1 ? 0xFF : (uint8_t)next(&seed);
                before = c;
                if (th)
                    thcfg_set(&c, sel, f, values[k]);
                else
                    cfg_set(&c, sel, f, values[k]);
                uint32_t got = th ? thcfg_get(&c, sel, f) : cfg_get(&c, sel, f);
                cr_assert_eq(got, values[k], "%s: wrote 0x%x read 0x%x", f->name, values[k], got);
                /* the rest of the word, and every other word, are unchanged */
                uint32_t m32 = cfg_field_mask(f);
                if (th) {
                    cr_assert_eq(c.thread[sel][f->word] & ~m32,
                                 before.thread[sel][f->word] & ~m32, "%s", f->name);
                    before.thread[sel][f->word] = c.thread[sel][f->word];
                } else {
                    cr_assert_eq(c.cfg[sel][f->word] & ~m32, before.cfg[sel][f->word] & ~m32,
                                 "%s", f->name);
                    before.cfg[sel][f->word] = c.cfg[sel][f->word];
                }
                /* and the write counted once (units/cfg.h gen) */
                cr_assert_eq(c.gen, before.gen + 1, "%s: write count %llu after %llu", f->name,
                             (unsigned long long)c.gen, (unsigned long long)before.gen);
                before.gen = c.gen;
                cr_assert(memcmp(&c, &before, sizeof c) == 0, "%s touched another word",
                          f->name);
            }
        }
    }
}

Test(cfg, set_drops_bits_above_the_width)
{
    struct tt_config c;
    memset(&c, 0, sizeof c);
    const struct cfg_field_desc *f = cfg_field_bh(CFGF_BH_ALU_FORMAT_SPEC_REG0_SrcA); /* [20:17] */
    cfg_set(&c, 1, f, 0x3Fu);
    cr_expect_eq(cfg_get(&c, 1, f), 0xFu);
    cr_expect_eq(c.cfg[1][1], 0xFu << 17);
    cr_expect_eq(c.cfg[0][1], 0u);
    const struct cfg_field_desc *t = thcfg_field_bh(THCFGF_BH_SFPU_DEST_FMT_Base); /* [4:1] */
    thcfg_set(&c, 2, t, 0xFFFFFFFFu);
    cr_expect_eq(c.thread[2][4], 0x1Eu);
    cr_expect_eq(thcfg_get(&c, 2, t), 0xFu);
    cr_expect_eq(c.thread[1][4], 0u);
}

struct win_case {
    uint32_t addr;
    enum cfg_win kind;
    unsigned sel, index, byte;
};

static void check_window(unsigned arch_bit, const struct win_case *w, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        struct cfg_win_hit h;
        enum cfg_win k = cfg_window_decode(arch_bit, w[i].addr - CFG_WINDOW_BASE, &h);
        cr_expect_eq(k, h.kind);
        cr_expect(h.kind == w[i].kind && h.sel == w[i].sel && h.index == w[i].index &&
                      h.byte == w[i].byte,
                  "arch %u 0x%08X: kind %d sel %u index %u byte %u, want %d %u %u %u", arch_bit,
                  w[i].addr, h.kind, h.sel, h.index, h.byte, w[i].kind, w[i].sel, w[i].index,
                  w[i].byte);
    }
}

/* spec/memory-map.md section 2: Config[0] 0xFFEF0000, Config[1] 0xFFEF0380 (224 words each),
 * ConfigDualWrite 0xFFEF0700, ThreadConfig 0xFFEF0A80 + 4 * (68 * t + k). */
Test(cfg_window, blackhole)
{
    static const struct win_case w[] = {
        {0xFFEF0000, CFG_WIN_CONFIG, 0, 0, 0},
        {0xFFEF0003, CFG_WIN_CONFIG, 0, 0, 3},
        {0xFFEF0000 + 4 * 186, CFG_WIN_CONFIG, 0, 186, 0}, /* PRNG_SEED_Seed_Val */
        {0xFFEF037C, CFG_WIN_CONFIG, 0, 223, 0},
        {0xFFEF037F, CFG_WIN_CONFIG, 0, 223, 3},
        {0xFFEF0380, CFG_WIN_CONFIG, 1, 0, 0},
        {0xFFEF06FC, CFG_WIN_CONFIG, 1, 223, 0},
        {0xFFEF0700, CFG_WIN_DUAL, 0, 0, 0},
        {0xFFEF0A7C, CFG_WIN_DUAL, 0, 223, 0},
        {0xFFEF0A7E, CFG_WIN_DUAL, 0, 223, 2},
        {0xFFEF0A80, CFG_WIN_THREAD, 0, 0, 0},
        {0xFFEF0A82, CFG_WIN_THREAD, 0, 0, 2}, /* padding half */
        {0xFFEF0A84, CFG_WIN_THREAD, 0, 1, 0},
        {0xFFEF0A80 + 4 * 67, CFG_WIN_THREAD, 0, 67, 0},
        {0xFFEF0A80 + 4 * 68, CFG_WIN_THREAD, 1, 0, 0},
        {0xFFEF0A80 + 4 * (68 * 2 + 5), CFG_WIN_THREAD, 2, 5, 0},
        {0xFFEF0A80 + 4 * (68 * 2 + 67) + 3, CFG_WIN_THREAD, 2, 67, 3}, /* 0xFFEF0DAF */
        {0xFFEF0DB0, CFG_WIN_NONE, 0, 0, 0},
        {0xFFEF8000, CFG_WIN_NONE, 0, 0, 0},
        {0xFFEFFFFF, CFG_WIN_NONE, 0, 0, 0},
    };
    check_window(TT_ARCH_BH, w, sizeof w / sizeof w[0]);
    const struct cfg_arch_map *m = cfg_arch(TT_ARCH_BH);
    cr_expect(m->has_dual_write);
    cr_expect_eq(m->bank_off[1], 0x380);
    cr_expect_eq(m->dual_off, 0x700);
    cr_expect_eq(m->thread_off, 0xA80);
    cr_expect_eq(m->thread_slot, 4);
}

/* Wormhole: Config[0] 0xFFEF0000, Config[1] 0xFFEF02F0 (188 words each), no dual-write array,
 * ThreadConfig 0xFFEF05E0 + 16 * (57 * t + k). */
Test(cfg_window, wormhole)
{
    static const struct win_case w[] = {
        {0xFFEF0000, CFG_WIN_CONFIG, 0, 0, 0},
        {0xFFEF0000 + 4 * 164, CFG_WIN_CONFIG, 0, 164, 0}, /* PRNG_SEED_Seed_Val */
        {0xFFEF02EC, CFG_WIN_CONFIG, 0, 187, 0},
        {0xFFEF02F0, CFG_WIN_CONFIG, 1, 0, 0},
        {0xFFEF05DC, CFG_WIN_CONFIG, 1, 187, 0},
        {0xFFEF05DF, CFG_WIN_CONFIG, 1, 187, 3},
        {0xFFEF05E0, CFG_WIN_THREAD, 0, 0, 0},
        {0xFFEF05EF, CFG_WIN_THREAD, 0, 0, 15}, /* padding of slot 0 */
        {0xFFEF05F0, CFG_WIN_THREAD, 0, 1, 0},
        {0xFFEF05E0 + 16 * 56, CFG_WIN_THREAD, 0, 56, 0},
        {0xFFEF05E0 + 16 * 57, CFG_WIN_THREAD, 1, 0, 0},
        {0xFFEF05E0 + 16 * (57 * 2 + 56), CFG_WIN_THREAD, 2, 56, 0}, /* 0xFFEF1080 */
        {0xFFEF108F, CFG_WIN_THREAD, 2, 56, 15},
        {0xFFEF1090, CFG_WIN_NONE, 0, 0, 0},
        {0xFFEFFFFC, CFG_WIN_NONE, 0, 0, 0},
    };
    check_window(TT_ARCH_WH, w, sizeof w / sizeof w[0]);
    const struct cfg_arch_map *m = cfg_arch(TT_ARCH_WH);
    cr_expect(!m->has_dual_write);
    cr_expect_eq(m->bank_off[1], 0x2F0);
    cr_expect_eq(m->thread_off, 0x5E0);
    cr_expect_eq(m->thread_slot, 16);
}

/* Offsets past the 64 KiB window (a caller's bug) hit nothing; hit may be NULL. */
Test(cfg_window, outside_and_null_hit)
{
    cr_expect_eq(cfg_window_decode(TT_ARCH_BH, CFG_WINDOW_SIZE, NULL), CFG_WIN_NONE);
    cr_expect_eq(cfg_window_decode(TT_ARCH_BH, 0xFFFFFFFFu, NULL), CFG_WIN_NONE);
    cr_expect_eq(cfg_window_decode(TT_ARCH_WH, 0x700, NULL), CFG_WIN_THREAD);
}
