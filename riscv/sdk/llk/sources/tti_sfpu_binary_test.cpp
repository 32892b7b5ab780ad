// tensim's own test source, shaped like tt-llk's tests/sources/sfpu_binary_test.cpp, for the
// binary SFPU kernels tt-llk writes with TTI_ macros alone: those build with Debian's stock g++
// (tensim-llk's TTI stub of ckernel_sfpu.h and shim sfpi.h), whereas tt-llk's own test reaches
// them through sfpu_operations.h, which pulls in SFPI kernels too.
//
// TILE_CNT tiles of operand A go through Dst (unpacked straight to Dst when 32-bit); the kernel
// TTI_BINARY_OP (build.h) combines Dst tiles 0 and 1 into tile 0, 32 SFPU iterations of 32
// datums (a whole tile), and every tile is packed back.

#include <cstdint>

#include "ckernel.h"
#include "llk_defs.h"

std::uint32_t unp_cfg_context          = 0;
std::uint32_t pack_sync_tile_dst_ptr   = 0;
std::uint32_t math_sync_tile_dst_index = 0;

// The kernels this source can call (build.h picks one as TTI_BINARY_OP)
enum class TtiBinaryOp
{
    ADD_INT,
    SUB_INT,
    AND,
    OR,
    XOR,
    LEFT_SHIFT,
    RIGHT_SHIFT,
    LOGICAL_RIGHT_SHIFT,
};

#ifdef LLK_TRISC_UNPACK

#include "llk_unpack_A.h"
#include "llk_unpack_common.h"
#include "params.h"

void run_kernel(RUNTIME_PARAMETERS params)
{
#if defined(RUNTIME_FORMATS) && !defined(SPEED_OF_LIGHT)
    const FormatConfig& formats = params.formats;
#endif
    _llk_unpack_hw_configure_<is_fp32_dest_acc_en>(
        formats.unpack_A_src, formats.unpack_B_src, formats.unpack_A_dst, formats.unpack_B_dst, FACE_R_DIM, FACE_R_DIM, 4, 4);
    _llk_unpack_A_init_<BroadcastType::NONE, false, EltwiseBinaryReuseDestType::NONE, unpack_to_dest>(
        0, 0, FACE_R_DIM, 4, formats.unpack_A_src, formats.unpack_A_dst);
    for (std::uint32_t i = 0; i < params.TILE_CNT; i++)
    {
        _llk_unpack_A_<BroadcastType::NONE, false, EltwiseBinaryReuseDestType::NONE, unpack_to_dest>(
            L1_ADDRESS(params.buffer_A[i]), formats.unpack_A_src, formats.unpack_A_dst);
    }
}

#endif

#ifdef LLK_TRISC_MATH

#include "ckernel_sfpu.h"
#include "llk_math_common.h"
#include "llk_math_eltwise_binary_sfpu.h"
#include "llk_math_eltwise_unary_datacopy.h"
#include "params.h"

using namespace ckernel::sfpu;

constexpr int ITERATIONS = 32; // 32 datums each: one 32x32 tile

// Dst tile `in0` op tile `in1` into tile `out`, 32-bit integers in two's complement
inline void call_tti_binary(std::uint32_t in0, std::uint32_t in1, std::uint32_t out)
{
    switch (TTI_BINARY_OP)
    {
        case TtiBinaryOp::ADD_INT:
            _add_int_<false, ITERATIONS, InstrModLoadStore::INT32, false>(in0, in1, out);
            break;
        case TtiBinaryOp::SUB_INT:
            _sub_int_<false, ITERATIONS, InstrModLoadStore::INT32, false>(in0, in1, out);
            break;
        case TtiBinaryOp::AND:
            _calculate_sfpu_binary_bitwise_<false, BinaryBitwiseOp::AND, InstrModLoadStore::INT32, ITERATIONS>(in0, in1, out);
            break;
        case TtiBinaryOp::OR:
            _calculate_sfpu_binary_bitwise_<false, BinaryBitwiseOp::OR, InstrModLoadStore::INT32, ITERATIONS>(in0, in1, out);
            break;
        case TtiBinaryOp::XOR:
            _calculate_sfpu_binary_bitwise_<false, BinaryBitwiseOp::XOR, InstrModLoadStore::INT32, ITERATIONS>(in0, in1, out);
            break;
        case TtiBinaryOp::LEFT_SHIFT:
            _calculate_binary_left_shift_<false, ITERATIONS, InstrModLoadStore::INT32, false>(in0, in1, out);
            break;
        case TtiBinaryOp::RIGHT_SHIFT:
            _calculate_binary_right_shift_<false, ITERATIONS, InstrModLoadStore::INT32, false>(in0, in1, out);
            break;
        case TtiBinaryOp::LOGICAL_RIGHT_SHIFT:
            _calculate_logical_right_shift_<false, ITERATIONS, InstrModLoadStore::INT32, false>(in0, in1, out);
            break;
    }
}

void run_kernel(RUNTIME_PARAMETERS params)
{
#if defined(RUNTIME_FORMATS) && !defined(SPEED_OF_LIGHT)
    const FormatConfig& formats = params.formats;
#endif
    _llk_math_pack_sync_init_<DstSync::SyncHalf, is_fp32_dest_acc_en>();
    _llk_math_hw_configure_<is_fp32_dest_acc_en>(formats.math, formats.math);
    _llk_math_eltwise_unary_datacopy_init_<DataCopyType::A2D, is_fp32_dest_acc_en, BroadcastType::NONE, false, false>(4, formats.math);

    _llk_math_wait_for_dest_available_<DstSync::SyncHalf>();
    for (std::uint32_t i = 0; i < params.TILE_CNT; i++)
    {
        _llk_math_eltwise_unary_datacopy_<DataCopyType::A2D, DstSync::SyncHalf, is_fp32_dest_acc_en, BroadcastType::NONE, unpack_to_dest>(
            i, formats.math, formats.math);
    }

    _llk_math_eltwise_binary_sfpu_init_<SfpuType::add1>();
    _llk_math_eltwise_binary_sfpu_start_<DstSync::SyncHalf>(0);
    call_tti_binary(0, 1, 0);
    _llk_math_eltwise_binary_sfpu_done_();
    _llk_math_dest_section_done_<DstSync::SyncHalf, is_fp32_dest_acc_en>();
}

#endif

#ifdef LLK_TRISC_PACK

#include "llk_pack.h"
#include "llk_pack_common.h"
#include "params.h"

void run_kernel(RUNTIME_PARAMETERS params)
{
#if defined(RUNTIME_FORMATS) && !defined(SPEED_OF_LIGHT)
    const FormatConfig& formats = params.formats;
#endif
    _llk_pack_hw_configure_<is_fp32_dest_acc_en, false, false>(formats.pack_src, formats.pack_dst, 16 * 16);
    _llk_pack_init_<false, false>(formats.pack_dst);
    _llk_pack_dest_init_<DstSync::SyncHalf, is_fp32_dest_acc_en>();

    _llk_packer_wait_for_math_done_();
    for (std::uint32_t i = 0; i < params.TILE_CNT; i++)
    {
        _llk_pack_<DstSync::SyncHalf, is_fp32_dest_acc_en, false>(i, L1_ADDRESS(params.buffer_Res[i]));
    }
    _llk_pack_dest_section_done_<DstSync::SyncHalf, is_fp32_dest_acc_en>();
}

#endif
