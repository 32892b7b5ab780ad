// tensim's own test source, shaped like tt-llk's tests/sources/eltwise_unary_sfpu_test.cpp, for
// the unary SFPU kernels tt-llk writes with TTI_ macros alone: they build with Debian's stock
// g++ (tensim-llk's TTI stub of ckernel_sfpu.h and shim sfpi.h), whereas tt-llk's own test
// reaches them through sfpu_operations.h, which pulls in SFPI kernels too.
//
// Each tile of operand A is unpacked, copied into Dst (or unpacked straight to Dst when
// 32-bit), run through the kernel TTI_UNARY_OP (build.h) over its 32 vectors of 32 datums, and
// packed back. DROPOUT_PROBABILITY, DROPOUT_SCALE and DROPOUT_SEED come from build.h too.

#include <cstdint>

#include "ckernel.h"
#include "llk_defs.h"

std::uint32_t unp_cfg_context          = 0;
std::uint32_t pack_sync_tile_dst_ptr   = 0;
std::uint32_t math_sync_tile_dst_index = 0;

// The kernels this source can call (build.h picks one as TTI_UNARY_OP)
enum class TtiUnaryOp
{
    SQUARE,
    CAST_FP32_TO_FP16A,
    DROPOUT,
};

static constexpr ckernel::DstSync DST_SYNC = ckernel::DstSync::SyncHalf;

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
#include "llk_math_eltwise_unary_datacopy.h"
#include "llk_math_eltwise_unary_sfpu.h"
#include "params.h"

using namespace ckernel;
using namespace ckernel::sfpu;

constexpr int ITERATIONS = 32; // 32 datums each: one 32x32 tile

inline void call_tti_unary()
{
    switch (TTI_UNARY_OP)
    {
        case TtiUnaryOp::SQUARE:
            _calculate_square_<false, ITERATIONS>();
            break;
        case TtiUnaryOp::CAST_FP32_TO_FP16A:
            _cast_fp32_to_fp16a_<false, ITERATIONS>(ITERATIONS);
            break;
        case TtiUnaryOp::DROPOUT:
            _calculate_dropout_<false, ITERATIONS>(ITERATIONS, DROPOUT_PROBABILITY, DROPOUT_SCALE);
            break;
    }
}

void run_kernel(RUNTIME_PARAMETERS params)
{
#if defined(RUNTIME_FORMATS) && !defined(SPEED_OF_LIGHT)
    const FormatConfig& formats = params.formats;
#endif
    _llk_math_eltwise_unary_datacopy_init_<DataCopyType::A2D, is_fp32_dest_acc_en, BroadcastType::NONE, false, false>(4, formats.math);
    _llk_math_hw_configure_<is_fp32_dest_acc_en>(formats.math, formats.math);
    _llk_math_pack_sync_init_<DST_SYNC, is_fp32_dest_acc_en>();
    _llk_math_eltwise_unary_sfpu_init_<SfpuType::square>();
    if constexpr (TTI_UNARY_OP == TtiUnaryOp::DROPOUT)
    {
        _init_dropout_(DROPOUT_SEED);
    }

    for (int block = 0; block < params.NUM_BLOCKS; block++)
    {
        _llk_math_wait_for_dest_available_<DST_SYNC>();
        for (std::uint32_t t = 0; t < params.NUM_TILES_IN_BLOCK; t++)
        {
            _llk_math_eltwise_unary_datacopy_<DataCopyType::A2D, DST_SYNC, is_fp32_dest_acc_en, BroadcastType::NONE, unpack_to_dest>(
                t, formats.math, formats.math);
            _llk_math_eltwise_unary_sfpu_start_<DST_SYNC>(t);
            call_tti_unary();
            _llk_math_eltwise_unary_sfpu_done_();
        }
        _llk_math_dest_section_done_<DST_SYNC, is_fp32_dest_acc_en>();
    }
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
    _llk_pack_hw_configure_<is_fp32_dest_acc_en, false, false>(formats.pack_src, formats.pack_dst, FACE_R_DIM * FACE_C_DIM * 4);
    _llk_pack_init_<false, false>(formats.pack_dst, FACE_R_DIM, TILE_C_DIM, 4);
    _llk_pack_dest_init_<DST_SYNC, is_fp32_dest_acc_en>();

    for (int block = 0; block < params.NUM_BLOCKS; block++)
    {
        _llk_packer_wait_for_math_done_();
        for (std::uint32_t t = 0; t < params.NUM_TILES_IN_BLOCK; t++)
        {
            _llk_pack_<DST_SYNC, is_fp32_dest_acc_en, false>(t, L1_ADDRESS(params.buffer_Res[block * params.NUM_TILES_IN_BLOCK + t]));
        }
        _llk_pack_dest_section_done_<DST_SYNC, is_fp32_dest_acc_en>();
    }
}

#endif
