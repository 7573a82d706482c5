// Filling the form of a real table's result through its widgets (TableResultDialog, docs/linked-battles.md
// "The form"), shared by test_gui.cpp and test_gui_linked.cpp.
#pragma once

#include "tableresultdialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QSpinBox>
#include <QTableWidget>

namespace wp::guitest {

// Enters one unit of the form (a row of the unit table): its fate and, for a remaining unit, its state
// (TVBD: resolve left; Tercios: Wear) and Disordered (Tercios). False when the widget does not take it.
inline bool enterUnit(TableResultDialog* dlg, int row, const QString& fate, int state = -1,
                      bool disordered = false) {
    QComboBox* box = dlg->fateBox(row);
    const int index = box ? box->findData(fate) : -1;
    if (index < 0)
        return false;
    box->setCurrentIndex(index);
    if (state >= 0) {
        if (!dlg->stateSpin(row)->isEnabled() || state < dlg->stateSpin(row)->minimum() ||
            state > dlg->stateSpin(row)->maximum())
            return false;
        dlg->stateSpin(row)->setValue(state);
    }
    if (disordered) {
        if (!dlg->disorderBox(row) || !dlg->disorderBox(row)->isEnabled())
            return false;
        dlg->disorderBox(row)->setChecked(true);
    }
    return true;
}

// The sample form (as test_linked's sampleForm): per side the first unit destroyed, the second routed
// (TVBD) or remaining Weary and Disordered (Tercios), the others remaining worn (TVBD one resolve lost,
// Tercios a Wear of 1). The units as they should be read back.
inline QList<battle::TableUnit> enterSampleForm(TableResultDialog* dlg, bool tvbd, bool* ok) {
    QList<battle::TableUnit> units = dlg->formUnits();
    int seen[2] = {0, 0};
    *ok = !units.isEmpty();
    for (int r = 0; r < units.size(); ++r) {
        battle::TableUnit& u = units[r];
        const int k = seen[u.side]++;
        u.fate = k == 0           ? QStringLiteral("destroyed")
                 : k == 1 && tvbd ? QStringLiteral("routed")
                                  : QStringLiteral("remaining");
        u.resolve = u.fate == QLatin1String("remaining") && tvbd ? std::max(1, u.startResolve - 1) : 0;
        u.wear = u.fate == QLatin1String("remaining") && !tvbd ? (k == 1 ? u.startResolve : 1) : 0;
        u.disordered = u.fate == QLatin1String("remaining") && !tvbd && k == 1;
        *ok = *ok && enterUnit(dlg, r, u.fate,
                               u.fate != QLatin1String("remaining") ? -1
                               : tvbd                               ? u.resolve
                                                                    : u.wear,
                               u.disordered);
    }
    return units;
}

} // namespace wp::guitest
