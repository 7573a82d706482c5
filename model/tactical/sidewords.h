// A side's name in the English of the log, the prompts and the refusals. No data says whether a name is
// singular or plural; the agreed rule reads it from the name: one that ends in 's' ("Swedes", "Tilly's
// Bavarians") or joins two ("Catholic League and Imperialists") is plural, any other ("Spain", "Sweden")
// singular.
#pragma once

#include "data/words.h"

#include <QString>

namespace wp::tactical {

// Whether `name` is read as a plural.
bool pluralName(const QString& name);

// `verb`, given in the third person singular ("deploys", "has", "is", "passes"), in the number of its
// subject: "deploy", "have", "are", "pass" for a plural.
QString conjugate(const char* verb, bool plural);

// A side's name as a possessive: "Spain's", "Swedes'".
QString possessive(const QString& name);

// `verb` (given in the third person singular) in the number of the side's name, for a sentence that puts
// words between the two ("Swedes (defender) place"): "places" or "place".
QString verbFor(const QString& side, const char* verb);

// A side's name as the subject of `verb` (given in the third person singular): "Spain deploys", "Swedes
// deploy".
QString subject(const QString& side, const char* verb);

// The possessive pronoun of a side: "its" (Spain), "their" (Swedes).
QString its(const QString& side);

// A count and its noun in the number of the count ("1 hit", "2 dice"): data/words.h.
using wp::counted;

} // namespace wp::tactical
