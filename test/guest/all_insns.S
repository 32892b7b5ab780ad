/* One of every instruction in riscv/rv32.def, in table order, assembled by GNU as: the test
 * test_rv32_table.c checks that our decoder names each word as the assembler meant it. */
    .option norvc
    .globl _start
_start:
    lui a0, 0x12345
    auipc a0, 0x12345
    jal a0, .+8
    jalr a0, -8(a1)
    beq a1, a2, .-16
    bne a1, a2, .-16
    blt a1, a2, .-16
    bge a1, a2, .-16
    bltu a1, a2, .-16
    bgeu a1, a2, .-16
    lb a0, -4(a1)
    lh a0, -4(a1)
    lw a0, -4(a1)
    lbu a0, -4(a1)
    lhu a0, -4(a1)
    sb a2, 12(a1)
    sh a2, 12(a1)
    sw a2, 12(a1)
    addi a0, a1, -7
    slti a0, a1, -7
    sltiu a0, a1, -7
    xori a0, a1, -7
    ori a0, a1, -7
    andi a0, a1, -7
    slli a0, a1, 31
    srli a0, a1, 31
    srai a0, a1, 31
    add a0, a1, a2
    sub a0, a1, a2
    sll a0, a1, a2
    slt a0, a1, a2
    sltu a0, a1, a2
    xor a0, a1, a2
    srl a0, a1, a2
    sra a0, a1, a2
    or a0, a1, a2
    and a0, a1, a2
    fence rw, rw
    fence.i
    ecall
    ebreak
    mul a0, a1, a2
    mulh a0, a1, a2
    mulhsu a0, a1, a2
    mulhu a0, a1, a2
    div a0, a1, a2
    divu a0, a1, a2
    rem a0, a1, a2
    remu a0, a1, a2
    csrrw a0, 0x7c3, a1
    csrrs a0, 0x7c3, a1
    csrrc a0, 0x7c3, a1
    csrrwi a0, 0x7c3, 17
    csrrsi a0, 0x7c3, 17
    csrrci a0, 0x7c3, 17
    sh1add a0, a1, a2
    sh2add a0, a1, a2
    sh3add a0, a1, a2
    andn a0, a1, a2
    orn a0, a1, a2
    xnor a0, a1, a2
    clz a0, a1
    ctz a0, a1
    cpop a0, a1
    sext.b a0, a1
    sext.h a0, a1
    zext.h a0, a1
    min a0, a1, a2
    minu a0, a1, a2
    max a0, a1, a2
    maxu a0, a1, a2
    rol a0, a1, a2
    ror a0, a1, a2
    rori a0, a1, 31
    orc.b a0, a1
    rev8 a0, a1
    amoadd.w a0, a2, (a1)
    amoswap.w a0, a2, (a1)
    amoxor.w a0, a2, (a1)
    amoor.w a0, a2, (a1)
    amoand.w a0, a2, (a1)
    amomin.w a0, a2, (a1)
    amomax.w a0, a2, (a1)
    amominu.w a0, a2, (a1)
    amomaxu.w a0, a2, (a1)
