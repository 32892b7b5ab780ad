/* lltt: the replay-buffer helpers SFPI's headers give tt-llk (ckernel.h includes "lltt.h"),
 * for builds with Debian's stock compiler.
 *
 * REPLAY (opcode 0x04) carries the start slot in bits 14+, the length in bits 4+, "execute
 * while loading" in bit 1 and "load" (record) in bit 0. record() loads the next `len`
 * instructions into the replay buffer from `start`; replay() plays them back; replay_insn()
 * is the playback word itself, for MOP templates.
 *
 * A word known at compile time goes inline (.ttinsn, see ttinsn.h), as SFPI's compiler emits
 * it; a run-time word goes through the instruction-buffer window, as tt-llk's TT_* macros
 * push theirs.
 */
#ifndef TENSIM_LLK_LLTT_H
#define TENSIM_LLK_LLTT_H

#include <cstdint>

namespace lltt
{

enum ExecBool : bool
{
    NoExec,
    Exec
};

constexpr std::uint32_t replay_word(std::uint32_t start, std::uint32_t len, bool exec, bool load)
{
    return (0x04u << 24) | (start << 14) | (len << 4) | (static_cast<std::uint32_t>(exec) << 1) |
           static_cast<std::uint32_t>(load);
}

[[gnu::always_inline]] inline void push(std::uint32_t word)
{
    if (__builtin_constant_p(word))
    {
        __asm__ __volatile__(".ttinsn %0" : : "n"(word));
    }
    else
    {
        *reinterpret_cast<volatile std::uint32_t *>(0xFFE40000u) = word; // INSTRN_BUF_BASE
    }
}

template <ExecBool E = NoExec>
[[gnu::always_inline]] inline void record(std::uint32_t start, std::uint32_t len)
{
    push(replay_word(start, len, E, true));
}

[[gnu::always_inline]] inline void replay(std::uint32_t start, std::uint32_t len)
{
    push(replay_word(start, len, false, false));
}

constexpr std::uint32_t replay_insn(std::uint32_t start, std::uint32_t len)
{
    return replay_word(start, len, false, false);
}

} // namespace lltt

#endif
