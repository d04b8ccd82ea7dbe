// The terms the Learn tab and the panels use, each with a one-line definition, as one table of
// plain data (no ImGui). Help lists them all; a panel's item that names a term shows its
// definition as a tooltip (glossary_tooltip in viewer/panels.h).
#pragma once

#include <span>

namespace rigview {

struct GlossaryEntry {
  const char* term;
  const char* definition;
};

std::span<const GlossaryEntry> glossary();

// The definition of `term` (exact spelling, as the table has it), nullptr when absent.
const char* glossary_definition(const char* term);

}  // namespace rigview
