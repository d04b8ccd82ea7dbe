#include "viewer/clipped_content.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>

namespace rigview {

namespace {

constexpr float kTolerance = 0.5f;  // layout rounds to whole pixels

bool scrolls_sideways(const ImGuiWindow& w) {
  return w.ScrollbarX || (w.Flags & ImGuiWindowFlags_HorizontalScrollbar) != 0 ||
         (w.Flags & ImGuiWindowFlags_AlwaysHorizontalScrollbar) != 0;
}

}  // namespace

void find_clipped_content(std::vector<ClippedContent>& out) {
  ImGuiContext& g = *ImGui::GetCurrentContext();
  for (ImGuiWindow* w : g.Windows) {
    if (!w->Active || w->Hidden || w->SkipItems) continue;
    const ImRect clip = w->InnerClipRect;
    if (!scrolls_sideways(*w)) {
      const float reach = std::max(w->DC.CursorMaxPos.x, w->DC.IdealMaxPos.x);
      if (reach > clip.Max.x + kTolerance) out.push_back({w->Name, reach - clip.Max.x});
    }
    // Without a vertical scrollbar, content below the window can never be seen.
    const bool can_scroll_down = w->ScrollbarY || (w->Flags & ImGuiWindowFlags_NoScrollbar) == 0;
    if (!can_scroll_down && w->DC.CursorMaxPos.y > clip.Max.y + kTolerance)
      out.push_back({std::string(w->Name) + " (below)", w->DC.CursorMaxPos.y - clip.Max.y});
  }
  for (int n = 0; n < g.Tables.GetMapSize(); ++n) {
    const ImGuiTable* t = g.Tables.TryGetMapData(n);
    if (!t || t->LastFrameActive != g.FrameCount) continue;
    for (int c = 0; c < t->ColumnsCount; ++c) {
      const ImGuiTableColumn& col = t->Columns[c];
      if (!col.IsEnabled || !col.IsVisibleX) continue;
      const float reach =
          std::max({col.ContentMaxXFrozen, col.ContentMaxXUnfrozen, col.ContentMaxXHeadersIdeal});
      if (reach > col.ClipRect.Max.x + kTolerance)
        out.push_back({std::string(t->OuterWindow ? t->OuterWindow->Name : "?") + " table column " +
                           std::to_string(c),
                       reach - col.ClipRect.Max.x});
    }
  }
}

}  // namespace rigview
