// Locating the data directory (the folder holding maps/, cards/ and scenarios/).
#pragma once

#include <QString>

namespace wp {

// Order: the explicit directory (e.g. --data), $WESTPHALIA_DATA, <exe>/../share/westphalia,
// the source tree the program was built from. Returns the first that holds maps/map.json, or the
// explicit/first candidate if none does (so the loader reports what is missing there).
QString findDataDir(const QString& explicitDir = {});

QString appVersion();

} // namespace wp
