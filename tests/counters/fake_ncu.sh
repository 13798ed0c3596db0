#!/bin/sh
# SPDX-License-Identifier: MIT
# A stand-in for Nsight Compute's ncu in the counters tests: it writes the
# CSV named by GS_FAKE_NCU_CSV to the --log-file path and prints forged
# lines on stdout (which the parent must never read). GS_FAKE_NCU_MODE:
# sleep (never finishes), perm (the counters' permission error), run (the
# counted launch: GS_FAKE_NCU_GRIDSTRIDE's worker mode runs the OpenCL
# kernel GS_FAKE_NCU_KERNEL in place of the CUDA one, on the application's
# n, grid, block and output path, as ncu would run the application).
log=
while [ $# -gt 0 ]; do
    case $1 in
    --version) echo "NVIDIA (R) Nsight Compute Command Line Profiler"
               echo "Version 2025.3.1.0 (build 36398880) (public-release)"; exit 0 ;;
    --log-file) log=$2; shift ;;
    __check-counters) shift; break ;;
    esac
    shift
done
if [ "${GS_FAKE_NCU_MODE:-}" = run ]; then
    # BACKEND ?SELECTOR DIALECT ENTRY SRC SHOWN N - - OUT GO DONE VALUES ("-" under ncu);
    # the device, grid and block come on the GO FIFO (the device as an index: 0)
    "$GS_FAKE_NCU_GRIDSTRIDE" __check-counters opencl ?0:0 1 "$4" "$GS_FAKE_NCU_KERNEL" "$6" \
        "$7" "$8" "$9" "${10}" "${11}" "${12}" "${13}" || exit $?
fi
echo '"0","1","p","h","solve","1","7","(1, 1, 1)","(1, 1, 1)","0","9.0","x","l1tex__t_requests_pipe_lsu_mem_global_op_st.sum","","1"'
case ${GS_FAKE_NCU_MODE:-} in
sleep) sleep 60 ;;
perm) echo "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters on the target device 0." >"$log"; exit 1 ;;
*) cat "$GS_FAKE_NCU_CSV" >"$log" ;;
esac
