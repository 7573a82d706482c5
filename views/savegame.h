// The GUI's save files (.tyw): gzip of JSON holding the game's identity and its ordered actions; a save is
// loaded by replaying them (design principle 3). An interim format until model/save (issue 7) lands: it
// writes format "westphalia-save" version 0, which the issue-7 loader can recognise and replay.
#pragma once

#include "data/gamedata.h"
#include "rules/engine.h"

#include <QString>
#include <QStringList>

namespace wp {

struct SaveData {
    QString scenario;
    QStringList options; // "key=value"
    quint64 seed = 0;
    QStringList seats;   // per side: "human", "computer", "remote"
    QStringList actions; // in notation, in order
    QByteArray fingerprint;
};

bool writeSave(const QString& file, const SaveData& save, QString* error);
bool readSave(const QString& file, SaveData& save, QString* error);

} // namespace wp
