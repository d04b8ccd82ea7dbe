// The key light's depth pass for materials cut by alpha (render/materials.h kShadowCasts: MASK
// at its own cutoff, BLEND at 0.5), after material_values.glsl and material_alpha.glsl: depth only, the fragment dropped
// where the material's alpha, read as the glTF shading reads it, is below u_alpha_cutoff. Opaque
// materials keep depth.frag.glsl's empty stage, which costs the rasteriser nothing.

void main() {
  material_alpha_values(g_material);
  if (alpha_cut(material_base_color().a)) discard;
}
