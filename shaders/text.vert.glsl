// Overlay text (stb_easy_font quads) in pixel coordinates, origin at the viewport's top left.
layout(location = 0) in vec2 a_pixel;

uniform vec2 u_viewport_size;
uniform vec2 u_origin; // pixels
uniform float u_scale;

void main() {
  vec2 p = u_origin + a_pixel * u_scale;
  gl_Position = vec4(p.x / u_viewport_size.x * 2.0 - 1.0, 1.0 - p.y / u_viewport_size.y * 2.0,
                     0.0, 1.0);
}
