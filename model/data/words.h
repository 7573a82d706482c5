// English words of the logs, the notes and the prompts that every part of the model uses.
#pragma once

#include <QString>

namespace wp {

// A count and its noun, given in the singular, in the number of the count: "1 hit", "0 hits", "3 points",
// "1 die", "2 dice", "1 space", "2 Light Horse stands".
QString counted(long long n, const char* noun);

} // namespace wp
