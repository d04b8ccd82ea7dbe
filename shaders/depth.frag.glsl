// The key light's depth pass (render/shadow_map.h): depth only. No colour output, no discard and
// no varyings read, so the rasteriser needs nothing from the fragment stage but the depth it
// computes itself: on a software rasteriser such as llvmpipe the fragment work is the pass's
// main cost, and the map has more covered texels than the frame has pixels.

void main() {}
