#include "battlereportdialog.h"

#include "gamecontroller.h"
#include "tableresultdialog.h"
#include "tactical/tvbd_ai.h"
#include "tacticalsession.h"
#include "tacticalwindow.h"
#include "theme.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QTableWidget>
#include <QVBoxLayout>

namespace wp {

namespace {

bool writeText(const QString& path, const QByteArray& bytes, QString* error) {
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit()) {
        *error = QStringLiteral("%1: cannot write: %2").arg(path, f.errorString());
        return false;
    }
    return true;
}

} // namespace

QString BattleReportDialog::recordText(const battle::BattleRecord& b) {
    if (b.tableBattle == 0)
        return QStringLiteral("—");
    if (b.tableResult.isEmpty())
        return QStringLiteral("not confirmed yet");
    if (b.recordOk == 0)
        return QStringLiteral("✘ its record does not give the result: %1").arg(b.recordError);
    if (b.recordOk == 1) {
        battle::TableRecord r;
        QString ignore;
        const int moves =
            battle::decodeRecord(b.attachment, &r, &ignore) ? static_cast<int>(r.moves.size()) : 0;
        if (b.evidence == QLatin1String("hand"))
            return QStringLiteral("✔ a real table's result: the form entered gives the result (%1 units)")
                .arg(std::max<qsizetype>(0, b.form.size() - 1));
        return b.evidence == QLatin1String("screen")
                   ? QStringLiteral(
                         "✔ fought on screen: its record replays to the result (%1 tactical actions)")
                         .arg(moves)
                   : QStringLiteral("✔ auto-resolved: its record replays to the result");
    }
    return b.autoResolved == 1 ? QStringLiteral("entered without a record; it is the auto-resolved battle")
                               : QStringLiteral("a real table's result, entered by hand and confirmed");
}

BattleReportDialog::BattleReportDialog(GameController* controller, QWidget* parent)
    : QDialog(parent), gc(controller) {
    setObjectName(QStringLiteral("battleReportDialog"));
    setWindowTitle(QStringLiteral("Battle report"));
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(14, 12, 14, 12);
    auto* title = new QLabel(QStringLiteral("The battles of this game"), this);
    title->setFont(theme::serif(16, true));
    lay->addWidget(title);
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_summary->setStyleSheet(QStringLiteral("QLabel { color: #6a4a20; }"));
    lay->addWidget(m_summary);
    m_table = new QTableWidget(0, Columns, this);
    m_table->setObjectName(QStringLiteral("battleTable"));
    m_table->setHorizontalHeaderLabels(
        {QStringLiteral("#"), QStringLiteral("Turn"), QStringLiteral("Battle at"), QStringLiteral("Attacker"),
         QStringLiteral("Resolved by"), QStringLiteral("Loss Numbers"), QStringLiteral("Winner"),
         QStringLiteral("Leaders lost"), QStringLiteral("Table result and record")});
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(Record, QHeaderView::Stretch);
    m_table->setWordWrap(true);
    lay->addWidget(m_table, 1);
    auto* row = new QHBoxLayout();
    m_open = new QPushButton(QStringLiteral("Open the battle"), this);
    m_open->setObjectName(QStringLiteral("openBattle"));
    m_open->setProperty("primary", true);
    m_saveScenario = new QPushButton(QStringLiteral("Save its scenario…"), this);
    m_saveLog = new QPushButton(QStringLiteral("Save its battle log…"), this);
    auto* close = new QPushButton(QStringLiteral("Close"), this);
    row->addWidget(m_open);
    row->addWidget(m_saveScenario);
    row->addWidget(m_saveLog);
    row->addStretch(1);
    row->addWidget(close);
    lay->addLayout(row);
    connect(close, &QPushButton::clicked, this, &QDialog::hide);
    connect(m_table, &QTableWidget::itemSelectionChanged, this, &BattleReportDialog::updateButtons);
    connect(m_open, &QPushButton::clicked, this, [this]() {
        QString error;
        if (!openBattle(m_table->currentRow(), &error))
            QMessageBox::warning(this, QStringLiteral("Open the battle"), error);
    });
    auto saveAs = [this](bool log) {
        const int r = m_table->currentRow();
        if (r < 0 || r >= m_battles.size())
            return;
        const QString path = QFileDialog::getSaveFileName(
            this, log ? QStringLiteral("Save the battle log") : QStringLiteral("Save the battle's scenario"),
            QStringLiteral("battle-%1.%2").arg(m_battles[r].tableBattle).arg(log ? "txt" : "json"),
            log ? QStringLiteral("Text (*.txt)") : QStringLiteral("Tactical scenarios (*.json)"));
        QString error;
        if (!path.isEmpty() && !(log ? saveLog(r, path, &error) : saveScenario(r, path, &error)))
            QMessageBox::warning(this, QStringLiteral("Battle report"), error);
    };
    connect(m_saveScenario, &QPushButton::clicked, this, [saveAs]() { saveAs(false); });
    connect(m_saveLog, &QPushButton::clicked, this, [saveAs]() { saveAs(true); });
    resize(1100, 460);
    updateButtons();
}

bool BattleReportDialog::refresh() {
    QString error;
    m_battles.clear();
    m_table->setRowCount(0);
    if (!gc->battleHistory(&m_battles, &error)) {
        m_summary->setText(error);
        updateButtons();
        return false;
    }
    int table = 0, screen = 0, autoResolved = 0, failed = 0;
    m_table->setRowCount(static_cast<int>(m_battles.size()));
    for (int r = 0; r < m_battles.size(); ++r) {
        const battle::BattleRecord& b = m_battles[r];
        table += b.tableBattle > 0;
        screen += b.evidence == QLatin1String("screen");
        autoResolved += b.evidence == QLatin1String("auto") || (b.recordOk < 0 && b.autoResolved == 1);
        failed += b.recordOk == 0;
        const QString cells[Columns] = {
            QString::number(r + 1),
            QString::number(b.turn),
            b.city,
            b.attacker,
            b.tableBattle > 0 ? QStringLiteral("%1 (table battle %2)").arg(b.resolution).arg(b.tableBattle)
                              : b.resolution,
            QStringLiteral("%1 / %2").arg(b.lossNumber[0]).arg(b.lossNumber[1]),
            b.winner.isEmpty() ? QStringLiteral("not finished") : b.winner,
            b.leadersLost.isEmpty() ? QStringLiteral("—") : b.leadersLost.join(QStringLiteral(", ")),
            b.tableBattle > 0 && !b.tableResult.isEmpty()
                ? QStringLiteral("%1 — %2").arg(b.tableResult, recordText(b))
                : recordText(b)};
        for (int c = 0; c < Columns; ++c) {
            auto* it = new QTableWidgetItem(cells[c]);
            // a real table's form: its units, fates and states in the record's tooltip
            it->setToolTip(c == Record && !b.form.isEmpty()
                               ? cells[c] + QLatin1Char('\n') + b.form.join(QLatin1Char('\n'))
                               : cells[c]);
            if (c == Record && b.recordOk == 0)
                it->setForeground(QColor(0xa0, 0x20, 0x20));
            else if (c == Record && b.recordOk == 1)
                it->setForeground(QColor(0x20, 0x60, 0x20));
            m_table->setItem(r, c, it);
        }
    }
    m_table->resizeRowsToContents();
    m_summary->setText(
        QStringLiteral("%1 %2, %3 on the table (%4 fought on screen, %5 auto-resolved, %6 "
                       "from a real table)%7. A table battle opens again in the tactical window: "
                       "its scenario comes from the game, its record is replayed.")
            .arg(m_battles.size())
            .arg(m_battles.size() == 1 ? QStringLiteral("battle") : QStringLiteral("battles"))
            .arg(table)
            .arg(screen)
            .arg(autoResolved)
            .arg(table - screen - autoResolved)
            .arg(failed ? QStringLiteral("; %1 records do NOT give their result").arg(failed) : QString()));
    if (!m_battles.isEmpty())
        m_table->selectRow(static_cast<int>(m_battles.size()) - 1);
    updateButtons();
    return true;
}

void BattleReportDialog::updateButtons() {
    const int r = m_table->currentRow();
    const bool table = r >= 0 && r < m_battles.size() && m_battles[r].tableState;
    m_open->setEnabled(table);
    m_saveScenario->setEnabled(table);
    m_saveLog->setEnabled(table && (!m_battles[r].attachment.isEmpty() || m_battles[r].autoResolved == 1));
}

TacticalWindow* BattleReportDialog::openBattle(int row, QString* error) {
    auto fail = [&](const QString& e) -> TacticalWindow* {
        if (error)
            *error = e;
        return nullptr;
    };
    if (row < 0 || row >= m_battles.size() || !m_battles[row].tableState)
        return fail(QStringLiteral("Only a battle fought on the table, its result confirmed, opens again."));
    const battle::BattleRecord& b = m_battles[row];
    QString path, why;
    quint64 seed = 0;
    if (!writeLinkedScenario(gc->data(), *b.tableState, &path, &seed, &why))
        return fail(why);
    auto session = TacticalSession::open(path, seed, &why);
    if (!session)
        return fail(QStringLiteral("The battle cannot be opened: %1").arg(why));
    battle::TableRecord record;
    const bool hasRecord = !b.attachment.isEmpty() && battle::decodeRecord(b.attachment, &record, &why);
    // a record of another revision of the tactical AI: its moves as played; an auto-resolved battle of it
    // cannot be played again by this version's AI (the table is shown as exported)
    const bool otherAi =
        hasRecord && record.usesTacticalAi() && record.tacticalAi != tactical::kTacticalAiRevision;
    if (otherAi)
        session->setOpenNote(
            QStringLiteral("This battle's computer moves were chosen by revision %1 of the tactical AI; this "
                           "version plays revision %2: %3")
                .arg(record.tacticalAi)
                .arg(tactical::kTacticalAiRevision)
                .arg(record.by == QLatin1String("auto")
                         ? QStringLiteral("the battle is shown as exported, not "
                                          "fought again")
                         : QStringLiteral("they are shown as played")));
    if (hasRecord && record.by == QLatin1String("screen")) {
        if (!session->replayMoves(record.moves, &why, otherAi))
            return fail(QStringLiteral("The battle's record does not replay: %1").arg(why));
    } else if (otherAi) {
        // shown as exported (above)
    } else if (hasRecord && record.by == QLatin1String("auto")) {
        // the policy the record names; none: the simple policy (a record written before the names)
        session->autoResolveRest(record.policy.isEmpty() ? QStringLiteral("simple") : record.policy);
    } else if (!hasRecord && b.autoResolved == 1) {
        session->autoResolveRest(); // today's auto-resolve, which the result was found to be
    }                               // a real table's battle: as exported, not fought here
    auto* w = new TacticalWindow(parentWidget());
    w->setAttribute(Qt::WA_DeleteOnClose);
    w->setSession(std::move(session));
    w->show();
    w->raise();
    return w;
}

bool BattleReportDialog::saveScenario(int row, const QString& target, QString* error) {
    if (row < 0 || row >= m_battles.size() || !m_battles[row].tableState) {
        *error = QStringLiteral("Not a table battle.");
        return false;
    }
    const battle::BattleRecord& b = m_battles[row];
    QJsonObject scenario;
    if (!battle::exportLinked(gc->data(), *b.tableState, b.rules, b.battleSeed, &scenario, error))
        return false;
    return writeText(target, QJsonDocument(scenario).toJson(QJsonDocument::Indented), error);
}

bool BattleReportDialog::battleLog(const battle::BattleRecord& b, QStringList* log, QString* error) const {
    if (!b.tableState) {
        *error = QStringLiteral("Not a table battle.");
        return false;
    }
    battle::TableRecord record;
    if (!b.attachment.isEmpty()) {
        battle::RecordCheck check;
        if (!battle::decodeRecord(b.attachment, &record, error) ||
            !battle::replayRecord(gc->data(), *b.tableState, record, &check, error))
            return false;
        *log = check.log;
        return true;
    }
    if (b.autoResolved != 1) {
        *error = QStringLiteral("This battle was fought on a real table: it has no battle log here.");
        return false;
    }
    battle::LinkedResult ignore;
    return battle::autoResolveLinked(gc->data(), *b.tableState, b.rules, b.battleSeed,
                                     battle::defaultMapping(b.rules), &ignore, nullptr, error, log);
}

bool BattleReportDialog::saveLog(int row, const QString& target, QString* error) {
    if (row < 0 || row >= m_battles.size()) {
        *error = QStringLiteral("No battle chosen.");
        return false;
    }
    QStringList log;
    if (!battleLog(m_battles[row], &log, error))
        return false;
    return writeText(target, (log.join(QLatin1Char('\n')) + QLatin1Char('\n')).toUtf8(), error);
}

} // namespace wp
