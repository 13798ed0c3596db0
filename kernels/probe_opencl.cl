/* The grid probe, OpenCL only: what the work-item functions return in a
 * launch of 2^32 work-items or more. The work-item whose global id is `item`
 * records get_global_size(0), its own get_global_id(0), groups x local size
 * in 64 bits, and the prelude's T. There is no loop, so the launch ends
 * whatever the driver returns; if get_global_id(0) itself were wrong, no
 * work-item would match and `out` would keep its fill. This is an API
 * measurement, not a kernel of the suite, hence its own file. */
__kernel void gs_probe_grid(__global ulong *out, ulong item)
{
    if ((ulong)get_global_id(0) == item) {
        out[0] = (ulong)get_global_size(0);
        out[1] = (ulong)get_global_id(0);
        out[2] = (ulong)get_num_groups(0) * (ulong)get_local_size(0);
        out[3] = GS_GRID_THREADS();
    }
}
