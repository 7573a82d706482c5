#include "tableresultdialog.h"

#include "gamecontroller.h"
#include "rules/internal.h"
#include "tactical/battle.h"
#include "tacticalsession.h"
#include "tacticalwindow.h"
#include "theme.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSaveFile>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace wp {

using namespace rules;

namespace {

const CombatFrame* combatOnTop(const GameState& s) {
    return s.frames.empty() ? nullptr : std::get_if<CombatFrame>(&s.frames.back());
}

QString tableRulesTitle(int table) {
    switch (table) {
    case kBattlesTvbd:
        return QStringLiteral("Tilly's Very Bad Day");
    case kBattlesTercios:
        return QStringLiteral("Brevis Editio Tercios");
    default:
        return QStringLiteral("the table");
    }
}

QString leaderNames(const GameData& d, const QList<int>& leaders) {
    QStringList names;
    for (int l : leaders)
        names << d.leaders[l].name.toHtmlEscaped();
    return names.isEmpty() ? QStringLiteral("none") : names.join(QStringLiteral(", "));
}

// The battle::scenarioHash of a scenario file (the battle the window fights).
bool scenarioHashOf(const QString& path, QString* hash, QString* error) {
    QFile file(path);
    QJsonParseError pe;
    const QJsonDocument doc =
        file.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(file.readAll(), &pe) : QJsonDocument();
    if (!doc.isObject()) {
        *error = QStringLiteral("%1: cannot read the battle's scenario").arg(path);
        return false;
    }
    *hash = battle::scenarioHash(doc.object());
    return true;
}

// The form of a real table's result (a "hand" record replayed): its units, per side, with their fates and
// states, and the totals.
QString handFormHtml(const GameState& s, const battle::RecordCheck& check) {
    const CombatFrame* f = combatOnTop(s);
    if (!f || check.units.isEmpty())
        return {};
    QString h =
        QStringLiteral("<p><b>The table as entered</b> (%1 holds the field):</p>"
                       "<table cellspacing='0' cellpadding='2' border='1' style='border-color:#c8b088'>"
                       "<tr><th>side</th><th>unit</th><th>type</th><th>fate and state</th></tr>")
            .arg(check.record.winner == 0   ? QStringLiteral("the attacker")
                 : check.record.winner == 1 ? QStringLiteral("the defender")
                                            : QStringLiteral("nobody: a draw"));
    for (const battle::TableUnit& u : check.units) {
        const int side = u.side == 0 ? f->attacker : 1 - f->attacker;
        const QString colour = u.fate == QLatin1String("destroyed") ? QStringLiteral("#a02020")
                               : u.fate == QLatin1String("routed")  ? QStringLiteral("#a06020")
                                                                    : QStringLiteral("#206020");
        h += QStringLiteral("<tr><td style='color:%1'>%2</td><td>%3</td><td>%4</td><td style='color:%5'>%6"
                            "</td></tr>")
                 .arg(theme::sideColor(side).name(), theme::sideName(side), u.name.toHtmlEscaped(),
                      u.weight > 1 ? QStringLiteral("%1 (counts %2)").arg(u.type).arg(u.weight) : u.type,
                      colour, u.stateText(check.record.rules).toHtmlEscaped());
    }
    h += QStringLiteral("</table>");
    for (int t = 0; t < 2; ++t) {
        const battle::TableSide& n = check.table.sides[t];
        h += QStringLiteral("<br>%1: %2 of %3 units destroyed, %4 routed, %5 remaining")
                 .arg(t == 0 ? QStringLiteral("Attacker") : QStringLiteral("Defender"))
                 .arg(n.destroyed)
                 .arg(n.units)
                 .arg(n.routed)
                 .arg(n.remaining);
    }
    return h; // the leaders lost are in the lines above ("Leaders lost on the table")
}

} // namespace

bool isTableChoice(const Action& a) {
    return a.kind == ActionKind::Choose &&
           ((a.target <= kBattleCrt && a.target >= kBattleWonByDefender) || a.target >= kLeaderBase);
}

bool isTableResultDecision(const std::vector<Action>& legal) {
    return !legal.empty() && std::all_of(legal.begin(), legal.end(), [](const Action& a) {
        return a.kind == ActionKind::Choose &&
               (a.target == kBattleWonByAttacker || a.target == kBattleWonByDefender);
    });
}

QString enteredTableResultHtml(const GameData& d, const GameState& s, const QString& attachment,
                               bool* matches) {
    const CombatFrame* f = combatOnTop(s);
    if (!f)
        return {};
    const int att = f->attacker, def = 1 - att;
    QStringList lost;
    for (int16_t l : f->tableLeadersLost)
        lost << d.leaders[l].name.toHtmlEscaped();
    QString h = QStringLiteral("<p style='font-size:12pt'><b>%1 reports: the %2 army holds the field.</b></p>"
                               "<p>Loss Number <b>%3</b> for the attacker (%4), <b>%5</b> for the defender "
                               "(%6).<br>Leaders lost on the table: %7.</p>")
                    .arg(theme::sideName(att),
                         f->tableWinner >= 0 ? theme::sideName(f->tableWinner) : QStringLiteral("?"))
                    .arg(f->lossNumber[att])
                    .arg(theme::sideName(att))
                    .arg(f->lossNumber[def])
                    .arg(theme::sideName(def))
                    .arg(lost.isEmpty() ? QStringLiteral("none") : lost.join(QStringLiteral(", ")));
    QString why;
    if (!attachment.isEmpty()) { // the battle's record: replayed here, its result compared
        battle::RecordCheck check;
        const bool same = battle::matchesRecord(d, s, attachment, &check, &why);
        if (matches)
            *matches = same;
        if (check.record.by == QLatin1String("hand")) {
            h += same ? QStringLiteral("<p style='color:#206020'><b>✔ The form entered gives this result</b> "
                                       "(the mapping of its units, winner and leaders). Confirm it if it is "
                                       "what happened on your table.</p>")
                      : QStringLiteral("<p style='color:#a02020'><b>✘ The form entered does not give this "
                                       "result</b>: %1<br><i>Dispute it: the result or its form was "
                                       "changed.</i></p>")
                            .arg(why.toHtmlEscaped());
            return h + handFormHtml(s, check);
        }
        const bool screen = check.record.by == QLatin1String("screen");
        QString what =
            screen ? QStringLiteral("the battle fought on screen (%1 tactical actions replayed%2%3)")
                         .arg(check.record.moves.size())
                         .arg(check.record.computer[0] || check.record.computer[1]
                                  ? QStringLiteral(", the computer seat's moves checked")
                                  : QString(),
                              check.record.handDice() > 0
                                  ? QStringLiteral(", %1 dice rolled by hand").arg(check.record.handDice())
                                  : QString())
                   : QStringLiteral("the auto-resolved battle of this position (the same seed)");
        h += same ? QStringLiteral("<p style='color:#206020'><b>✔ Verified: the battle's record gives this "
                                   "result</b> — %1: %2.</p>")
                        .arg(what.toHtmlEscaped(), check.end.toHtmlEscaped())
                  : QStringLiteral(
                        "<p style='color:#a02020'><b>✘ The battle's record does not give this "
                        "result</b>: %1<br><i>Dispute it: the result or its record was changed.</i></p>")
                        .arg(why.toHtmlEscaped());
        return h;
    }
    const bool same = battle::matchesAutoResolve(d, s, &why);
    if (matches)
        *matches = same;
    h += same ? QStringLiteral("<p style='color:#206020'><b>✔ This is the auto-resolved battle of this "
                               "position</b> (the same battle, the same seed).</p>")
              : QStringLiteral("<p style='color:#a02020'><b>✘ Not the auto-resolved battle</b>: %1<br>"
                               "<i>A result from a real table differs from it by nature; confirm it if it is "
                               "what happened on your table.</i></p>")
                    .arg(why.toHtmlEscaped());
    return h;
}

TableResultDialog::TableResultDialog(GameController* controller, QWidget* parent)
    : QDialog(parent), gc(controller) {
    setObjectName(QStringLiteral("tableResultDialog"));
    setWindowTitle(QStringLiteral("Tabletop result"));
    setModal(false);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(14, 12, 14, 12);
    lay->setSpacing(8);
    m_title = new QLabel(this);
    m_title->setFont(theme::serif(16, true));
    m_title->setAlignment(Qt::AlignHCenter);
    lay->addWidget(m_title);
    m_subtitle = new QLabel(this);
    m_subtitle->setAlignment(Qt::AlignHCenter);
    m_subtitle->setWordWrap(true);
    m_subtitle->setStyleSheet(QStringLiteral("QLabel { color: #6a4a20; }"));
    lay->addWidget(m_subtitle);

    m_tabs = new QTabWidget(this);
    // (a) auto-resolve
    auto* autoPage = new QWidget(m_tabs);
    auto* autoLay = new QVBoxLayout(autoPage);
    auto* autoText = new QLabel(
        QStringLiteral("The battle is exported to the tabletop rules and fought on screen by the tactical "
                       "engine's auto-resolve. Its seed comes from the position, so the other player can "
                       "reproduce it and check the result before confirming it."),
        autoPage);
    autoText->setWordWrap(true);
    autoLay->addWidget(autoText);
    m_auto = new QPushButton(QStringLiteral("Auto-resolve the battle"), autoPage);
    m_auto->setObjectName(QStringLiteral("autoResolve"));
    m_auto->setProperty("primary", true);
    connect(m_auto, &QPushButton::clicked, this, [this]() { autoResolve(); });
    autoLay->addWidget(m_auto, 0, Qt::AlignLeft);
    autoLay->addStretch(1);
    m_tabs->addTab(autoPage, QStringLiteral("Auto-resolve"));

    // (b) a real table
    auto* formPage = new QWidget(m_tabs);
    auto* formLay = new QVBoxLayout(formPage);
    auto* winRow = new QHBoxLayout();
    winRow->addWidget(new QLabel(QStringLiteral("Who holds the field:"), formPage));
    m_winner = new QComboBox(formPage);
    m_winner->setObjectName(QStringLiteral("tableWinner"));
    winRow->addWidget(m_winner, 1);
    formLay->addLayout(winRow);
    m_units = new QTableWidget(0, 6, formPage);
    m_units->setObjectName(QStringLiteral("tableUnits"));
    m_units->setHorizontalHeaderLabels({QStringLiteral("Side"), QStringLiteral("Unit"),
                                        QStringLiteral("Type"), QStringLiteral("Fate"),
                                        QStringLiteral("State"), QStringLiteral("Markers")});
    m_units->verticalHeader()->setVisible(false);
    m_units->setSelectionMode(QAbstractItemView::NoSelection);
    m_units->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_units->horizontalHeader()->setSectionResizeMode(NameColumn, QHeaderView::Stretch);
    m_units->setMinimumHeight(240);
    formLay->addWidget(m_units, 1);
    m_unitsNote = new QLabel(formPage);
    m_unitsNote->setWordWrap(true);
    m_unitsNote->setStyleSheet(QStringLiteral("QLabel { color: #6a5536; font-size: 8pt; }"));
    formLay->addWidget(m_unitsNote);
    auto* grid = new QGridLayout();
    const char* heads[] = {"destroyed", "routed", "remaining"};
    grid->addWidget(new QLabel(QStringLiteral("<i>totals (tactical units)</i>"), formPage), 0, 0);
    for (int c = 0; c < 3; ++c)
        grid->addWidget(new QLabel(QLatin1String(heads[c]), formPage), 0, c + 1, Qt::AlignHCenter);
    for (int t = 0; t < 2; ++t) {
        m_sideLabel[t] = new QLabel(formPage);
        grid->addWidget(m_sideLabel[t], t + 1, 0);
        for (int c = 0; c < 3; ++c) {
            auto* sp = new QSpinBox(formPage);
            sp->setRange(0, 999);
            sp->setReadOnly(true); // derived from the units above
            sp->setButtonSymbols(QAbstractSpinBox::NoButtons);
            sp->setFocusPolicy(Qt::NoFocus);
            sp->setObjectName(
                QStringLiteral("table%1%2").arg(t == 0 ? "Attacker" : "Defender", QLatin1String(heads[c])));
            grid->addWidget(sp, t + 1, c + 1);
            m_spins[t][c] = sp;
        }
    }
    formLay->addLayout(grid);
    formLay->addWidget(new QLabel(QStringLiteral("Commanders lost (tick each that fell):"), formPage));
    m_leaders = new QListWidget(formPage);
    m_leaders->setObjectName(QStringLiteral("tableLeaders"));
    m_leaders->setMaximumHeight(80);
    formLay->addWidget(m_leaders);
    m_map = new QPushButton(QStringLiteral("Show the campaign result"), formPage);
    m_map->setObjectName(QStringLiteral("mapTableForm"));
    m_map->setProperty("primary", true);
    connect(m_map, &QPushButton::clicked, this, [this]() { mapForm(); });
    formLay->addWidget(m_map, 0, Qt::AlignLeft);
    m_tabs->addTab(formPage, QStringLiteral("A real table's result"));

    // (c) the export
    auto* exportPage = new QWidget(m_tabs);
    auto* exportLay = new QVBoxLayout(exportPage);
    auto* exportText = new QLabel(
        QStringLiteral(
            "The battle as a scenario for the miniatures rules: set it up on your table, fight it, "
            "then enter its result in the tab “A real table’s result”."),
        exportPage);
    exportText->setWordWrap(true);
    exportLay->addWidget(exportText);
    m_export = new QPushButton(QStringLiteral("Export the battle…"), exportPage);
    m_export->setObjectName(QStringLiteral("tableExport"));
    connect(m_export, &QPushButton::clicked, this, &TableResultDialog::exportBattle);
    exportLay->addWidget(m_export, 0, Qt::AlignLeft);
    exportLay->addStretch(1);
    m_tabs->addTab(exportPage, QStringLiteral("Export"));

    // (d) fought on screen, move by move
    auto* fightPage = new QWidget(m_tabs);
    auto* fightLay = new QVBoxLayout(fightPage);
    auto* fightText = new QLabel(
        QStringLiteral(
            "Fight the battle move by move in the tactical window: both players at this screen, or "
            "against the computer for a computer player's side. When the battle ends, its result "
            "comes back here to be submitted with the battle's record (every move, the seed): the "
            "other player's copy replays it and checks the result before he confirms it."),
        fightPage);
    fightText->setWordWrap(true);
    fightLay->addWidget(fightText);
    m_fight = new QPushButton(QStringLiteral("Fight it on screen…"), fightPage);
    m_fight->setObjectName(QStringLiteral("fightOnScreen"));
    m_fight->setProperty("primary", true);
    connect(m_fight, &QPushButton::clicked, this, [this]() { fightOnScreen(); });
    fightLay->addWidget(m_fight, 0, Qt::AlignLeft);
    m_unfinishedNote = new QLabel(fightPage);
    m_unfinishedNote->setObjectName(QStringLiteral("unfinishedNote"));
    m_unfinishedNote->setWordWrap(true);
    m_unfinishedNote->setStyleSheet(QStringLiteral("QLabel { color: #6a4a20; }"));
    fightLay->addWidget(m_unfinishedNote);
    auto* unfinishedRow = new QHBoxLayout();
    m_resume = new QPushButton(QStringLiteral("Resume the unfinished battle"), fightPage);
    m_resume->setObjectName(QStringLiteral("resumeBattle"));
    connect(m_resume, &QPushButton::clicked, this, [this]() { resumeUnfinished(); });
    m_discard = new QPushButton(QStringLiteral("Discard it"), fightPage);
    m_discard->setObjectName(QStringLiteral("discardBattle"));
    connect(m_discard, &QPushButton::clicked, this, [this]() { discardUnfinished(); });
    unfinishedRow->addWidget(m_resume);
    unfinishedRow->addWidget(m_discard);
    unfinishedRow->addStretch(1);
    fightLay->addLayout(unfinishedRow);
    fightLay->addStretch(1);
    m_tabs->addTab(fightPage, QStringLiteral("Fight it on screen"));
    lay->addWidget(m_tabs, 3);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int) { clearResult(); });

    m_preview = new QLabel(this);
    m_preview->setObjectName(QStringLiteral("tableResultPreview"));
    m_preview->setTextFormat(Qt::RichText);
    m_preview->setWordWrap(true);
    m_preview->setMinimumHeight(110);
    m_preview->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_preview->setStyleSheet(
        QStringLiteral("QLabel { background: #fbf7ee; border: 1px solid #c8b088; border-radius: 6px;"
                       " padding: 8px; }"));
    lay->addWidget(m_preview, 1);
    auto* bottom = new QHBoxLayout();
    bottom->addStretch(1);
    auto* close = new QPushButton(QStringLiteral("Close"), this);
    connect(close, &QPushButton::clicked, this, &QDialog::hide);
    bottom->addWidget(close);
    m_submit = new QPushButton(QStringLiteral("Submit this result"), this);
    m_submit->setObjectName(QStringLiteral("submitTableResult"));
    m_submit->setProperty("primary", true);
    connect(m_submit, &QPushButton::clicked, this, [this]() { submitResult(); });
    bottom->addWidget(m_submit);
    lay->addLayout(bottom);
    resize(760, 860);
    clearResult();
}

bool TableResultDialog::refresh() {
    if (!gc->hasGame() || !isTableResultDecision(gc->legal()))
        return false;
    const GameData& d = gc->data();
    const GameState& s = gc->state();
    const CombatFrame* f = combatOnTop(s);
    if (!f)
        return false;
    const int att = f->attacker, def = 1 - att;
    // another battle (a new game may stop at a battle in the same city): its units, leaders and ruleset
    const QString battleKey =
        QStringLiteral("%1/%2/%3").arg(f->city).arg(f->table).arg(battle::linkedBattleSeed(s));
    const bool fresh = battleKey != m_battle;
    m_battle = battleKey;
    m_title->setText(QStringLiteral("Battle at %1 — on the table").arg(cityName(d, f->city)));
    m_subtitle->setText(QStringLiteral("%1 (attacker) against %2 (defender) · %3. %1 enters the result; %2 "
                                       "confirms or disputes it.")
                            .arg(theme::sideName(att), theme::sideName(def), tableRulesTitle(f->table)));
    setWindowTitle(QStringLiteral("Tabletop result — battle at %1").arg(cityName(d, f->city)));
    if (!fresh)
        return true;
    m_winner->clear();
    m_winner->addItem(QStringLiteral("the attacker (%1)").arg(theme::sideName(att)), 0);
    m_winner->addItem(QStringLiteral("the defender (%1)").arg(theme::sideName(def)), 1);
    m_winner->addItem(QStringLiteral("a draw (12.28's tie rule decides)"), 2);
    for (int t = 0; t < 2; ++t) {
        const int side = t == 0 ? att : def;
        m_sideLabel[t]->setText(QStringLiteral("<b style='color:%1'>%2</b> (%3)")
                                    .arg(theme::sideColor(side).name(), theme::sideName(side),
                                         t == 0 ? QStringLiteral("attacker") : QStringLiteral("defender")));
    }
    fillUnits();
    m_leaders->clear();
    for (int t = 0; t < 2; ++t)
        for (int16_t l : t == 0 ? f->attackLeaders : f->defendLeaders) {
            auto* it = new QListWidgetItem(
                QStringLiteral("%1 (%2)").arg(d.leaders[l].name, theme::sideName(t == 0 ? att : def)),
                m_leaders);
            it->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
            it->setCheckState(Qt::Unchecked);
            it->setData(Qt::UserRole, d.leaders[l].id);
            it->setData(Qt::UserRole + 1, t);
        }
    m_tabs->setCurrentIndex(0);
    clearResult();
    updateUnfinished();
    return true;
}

QString linkedBattleFile(const GameData& d, const GameState& s) {
    const CombatFrame* f = combatOnTop(s);
    if (!f || f->table <= 0)
        return {};
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) +
                        QStringLiteral("/linked-battles");
    return QStringLiteral("%1/%2-turn%3-%4-%5.json")
        .arg(dir, d.cities[f->city].id)
        .arg(s.turn)
        .arg(f->table == kBattlesTercios ? QStringLiteral("tercios") : QStringLiteral("tvbd"))
        .arg(battle::linkedBattleSeed(s));
}

bool writeLinkedScenario(const GameData& d, const GameState& s, QString* path, quint64* seed,
                         QString* error) {
    const CombatFrame* f = combatOnTop(s);
    if (!f || f->table <= 0) {
        *error = QStringLiteral("No battle is on the table here.");
        return false;
    }
    const QString rules = f->table == kBattlesTercios ? QStringLiteral("tercios") : QStringLiteral("tvbd");
    *seed = battle::linkedBattleSeed(s);
    QJsonObject scenario;
    QString why;
    if (!battle::exportLinked(d, s, rules, *seed, &scenario, &why)) {
        *error = QStringLiteral("The battle cannot be exported: %1").arg(why);
        return false;
    }
    *path = linkedBattleFile(d, s);
    const QString dir = QFileInfo(*path).absolutePath();
    if (!QDir().mkpath(dir)) {
        *error = QStringLiteral("%1: cannot create the folder").arg(dir);
        return false;
    }
    QSaveFile file(*path);
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(QJsonDocument(scenario).toJson(QJsonDocument::Indented)) < 0 || !file.commit()) {
        *error = QStringLiteral("%1: cannot write: %2").arg(*path, file.errorString());
        return false;
    }
    return true;
}

QString TableResultDialog::battleFile() const {
    return gc->hasGame() ? linkedBattleFile(gc->data(), gc->state()) : QString();
}

QString TableResultDialog::unfinishedFile() const {
    const QString scenario = battleFile();
    if (scenario.isEmpty())
        return {};
    const QString path = scenario.chopped(5) + QStringLiteral(".unfinished.json");
    return QFileInfo::exists(path) ? path : QString();
}

void TableResultDialog::updateUnfinished() {
    const QString path = unfinishedFile();
    m_resume->setVisible(!path.isEmpty());
    m_discard->setVisible(!path.isEmpty());
    m_unfinishedNote->setVisible(!path.isEmpty());
    if (path.isEmpty())
        return;
    QJsonObject root;
    QFile file(path);
    if (file.open(QIODevice::ReadOnly))
        root = QJsonDocument::fromJson(file.readAll()).object();
    m_unfinishedNote->setText(
        QStringLiteral("An unfinished battle is kept for this table result (%1 tactical actions played, "
                       "nothing submitted): resume it where it was left, or discard it.")
            .arg(root.value(QStringLiteral("actions")).toArray().size()));
}

void TableResultDialog::clearResult() {
    m_pending.reset();
    m_pendingAttachment.clear();
    m_submit->setEnabled(false);
    m_preview->setText(QStringLiteral("<i>Auto-resolve the battle, or enter the result of your table: the "
                                      "campaign result is shown here before you submit it.</i>"));
}

bool TableResultDialog::failWith(const QString& message, QString* error) {
    showError(message);
    if (error)
        *error = message;
    return false;
}

void TableResultDialog::showError(const QString& error) {
    m_pending.reset();
    m_pendingAttachment.clear();
    m_submit->setEnabled(false);
    m_preview->setText(QStringLiteral("<p style='color:#a02020'><b>%1</b></p>").arg(error.toHtmlEscaped()));
}

void TableResultDialog::showResult(const battle::LinkedResult& r, const QString& from,
                                   const QString& attachment, const QString& evidence) {
    const GameData& d = gc->data();
    const CombatFrame* f = combatOnTop(gc->state());
    const int att = f ? f->attacker : 0, def = 1 - att;
    const int winner = r.attackerWins ? att : def;
    m_pending = r;
    m_pendingFrom = from;
    m_pendingAttachment = attachment;
    m_submit->setEnabled(true);
    m_preview->setText(
        QStringLiteral(
            "<p style='font-size:12pt'><b style='color:%1'>The %2 army wins</b> (%3).</p>"
            "<p>Loss Numbers (12.31): <b>%4</b> for the attacker (%5), <b>%6</b> for the defender "
            "(%7).<br>Leaders lost: %8.</p><p>%11</p><p style='color:#6a5536; font-size:8pt'>%9<br>To "
            "enter: %10</p>")
            .arg(theme::sideColor(winner).name(), theme::sideName(winner), from)
            .arg(r.lossNumber[0])
            .arg(theme::sideName(att))
            .arg(r.lossNumber[1])
            .arg(theme::sideName(def))
            .arg(leaderNames(d, r.leadersLost), r.why.toHtmlEscaped(),
                 r.actions(d).join(QStringLiteral("; ")).toHtmlEscaped(),
                 evidence.isEmpty()
                     ? QStringLiteral("<i>Entered by hand: the other player confirms it or disputes it.</i>")
                     : evidence));
}

bool TableResultDialog::autoResolve() {
    if (!refresh()) {
        showError(QStringLiteral("The table result is not the decision now."));
        return false;
    }
    battle::LinkedResult r;
    QString error, attachment;
    if (!battle::autoResolveTop(gc->data(), gc->state(), &r, &error) ||
        !battle::autoRecord(gc->data(), gc->state(), &attachment, &error)) {
        showError(QStringLiteral("The battle could not be auto-resolved: %1").arg(error));
        return false;
    }
    showResult(r, QStringLiteral("auto-resolved on screen"), attachment,
               QStringLiteral("<i>The battle's record goes with the result (auto-resolved, seed %1): every "
                              "copy of the game auto-resolves the same battle and checks it.</i>")
                   .arg(battle::linkedBattleSeed(gc->state())));
    return true;
}

QComboBox* TableResultDialog::fateBox(int row) const {
    return qobject_cast<QComboBox*>(m_units->cellWidget(row, FateColumn));
}

// The state widgets sit in a holder (the view shows its cell widgets; the holder hides its content for a
// unit that is not remaining).
QSpinBox* TableResultDialog::stateSpin(int row) const {
    QWidget* holder = m_units->cellWidget(row, StateColumn);
    return holder ? holder->findChild<QSpinBox*>() : nullptr;
}

QCheckBox* TableResultDialog::disorderBox(int row) const {
    QWidget* holder = m_units->cellWidget(row, DisorderColumn);
    return holder ? holder->findChild<QCheckBox*>() : nullptr;
}

namespace {

QWidget* cellHolder(QWidget* content, QWidget* parent) {
    auto* holder = new QWidget(parent);
    auto* lay = new QHBoxLayout(holder);
    lay->setContentsMargins(0, 0, 0, 0);
    content->setParent(holder);
    lay->addWidget(content);
    return holder;
}

} // namespace

void TableResultDialog::fillUnits() {
    const GameData& d = gc->data();
    const GameState& s = gc->state();
    const CombatFrame* f = combatOnTop(s);
    m_formRules = f && f->table == kBattlesTercios ? QStringLiteral("tercios") : QStringLiteral("tvbd");
    const bool tvbd = m_formRules == QLatin1String("tvbd");
    m_formUnits.clear();
    m_formError.clear();
    if (!battle::tableUnits(d, s, &m_formUnits, &m_formError))
        m_formUnits.clear();
    m_units->setRowCount(0);
    m_units->setRowCount(static_cast<int>(m_formUnits.size()));
    m_units->setColumnHidden(DisorderColumn, tvbd);
    for (int r = 0; r < m_formUnits.size(); ++r) {
        const battle::TableUnit& u = m_formUnits[r];
        const int side = u.side == 0 ? f->attacker : 1 - f->attacker;
        auto* sideItem = new QTableWidgetItem(theme::sideName(side));
        sideItem->setForeground(theme::sideColor(side));
        m_units->setItem(r, SideColumn, sideItem);
        m_units->setItem(r, NameColumn, new QTableWidgetItem(u.name));
        // TVBD's types as the rulebook names them ("Pike+Shot"); Tercios' as its data does.
        const QString type = tvbd ? tactical::typeLabel(u.type) : u.type;
        m_units->setItem(r, TypeColumn,
                         new QTableWidgetItem(
                             u.weight > 1 ? QStringLiteral("%1 (counts %2)").arg(type).arg(u.weight) : type));
        auto* fate = new QComboBox(m_units);
        fate->setObjectName(QStringLiteral("fate_%1").arg(u.id));
        fate->addItem(QStringLiteral("—"), QString());
        fate->addItem(QStringLiteral("remaining"), QStringLiteral("remaining"));
        if (tvbd) // Tercios has no rout status
            fate->addItem(QStringLiteral("routed"), QStringLiteral("routed"));
        fate->addItem(QStringLiteral("destroyed"), QStringLiteral("destroyed"));
        m_units->setCellWidget(r, FateColumn, fate);
        auto* state = new QSpinBox(m_units);
        state->setObjectName(QStringLiteral("state_%1").arg(u.id));
        if (tvbd) {
            state->setRange(1, std::max(1, u.startResolve));
            state->setValue(u.startResolve);
            state->setPrefix(QStringLiteral("resolve "));
            state->setSuffix(QStringLiteral(" of %1").arg(u.startResolve));
            state->setToolTip(
                QStringLiteral("The resolve it has left (TVBD 7.1): its starting resolve less its "
                               "losses"));
        } else {
            state->setRange(0, u.startResolve);
            state->setValue(0);
            state->setPrefix(QStringLiteral("Wear "));
            state->setSuffix(QStringLiteral(" of %1").arg(u.startResolve));
            state->setToolTip(QStringLiteral("Its Wear markers; at its Stamina (%1) it is Weary, above it "
                                             "destroyed")
                                  .arg(u.startResolve));
        }
        state->setEnabled(false);
        state->setVisible(false);
        m_units->setCellWidget(r, StateColumn, cellHolder(state, m_units));
        QCheckBox* disorder = nullptr;
        if (!tvbd) {
            disorder = new QCheckBox(QStringLiteral("Disordered"), m_units);
            disorder->setObjectName(QStringLiteral("disordered_%1").arg(u.id));
            disorder->setEnabled(false);
            disorder->setVisible(false);
            m_units->setCellWidget(r, DisorderColumn, cellHolder(disorder, m_units));
        }
        connect(fate, &QComboBox::currentIndexChanged, this, [this, fate, state, disorder]() {
            const bool remaining = fate->currentData().toString() == QLatin1String("remaining");
            state->setEnabled(remaining); // a state for a remaining unit only
            state->setVisible(remaining);
            if (disorder) {
                disorder->setEnabled(remaining);
                disorder->setVisible(remaining);
            }
            updateTotals();
        });
        if (!tvbd)
            connect(state, &QSpinBox::valueChanged, this, [state, u](int wear) {
                state->setSuffix(wear >= u.startResolve ? QStringLiteral(" of %1 · Weary").arg(u.startResolve)
                                                        : QStringLiteral(" of %1").arg(u.startResolve));
            });
    }
    m_units->resizeColumnsToContents();
    // the state widgets start hidden (no fate yet): room for "Wear 3 of 3 · Weary", "resolve 4 of 4"
    m_units->setColumnWidth(FateColumn, 112);
    m_units->setColumnWidth(StateColumn, tvbd ? 130 : 160);
    m_units->setColumnWidth(DisorderColumn, 112);
    m_units->horizontalHeader()->setSectionResizeMode(NameColumn, QHeaderView::Stretch);
    m_unitsNote->setText(
        m_formError.isEmpty()
            ? (tvbd ? QStringLiteral(
                          "The units of the exported battle, as you set it up. Enter each one’s fate; "
                          "for a remaining unit the resolve it has left. A Large Pike+Shot counts 2; "
                          "the Commanders are the leaders below. The totals are the units added.")
                    : QStringLiteral(
                          "The units of the exported battle, as you set it up. Enter each one’s fate "
                          "(Tercios has no rout: a unit that left the table is destroyed); for a "
                          "remaining unit its Wear (Weary at its Stamina) and whether it is "
                          "Disordered. The totals are the units added."))
            : QStringLiteral("The battle’s units cannot be read: %1").arg(m_formError));
    updateTotals();
}

QList<battle::TableUnit> TableResultDialog::enteredUnits() const {
    QList<battle::TableUnit> units = m_formUnits;
    for (int r = 0; r < units.size(); ++r) {
        battle::TableUnit& u = units[r];
        u.fate = fateBox(r) ? fateBox(r)->currentData().toString() : QString();
        if (m_formRules == QLatin1String("tvbd"))
            u.resolve = stateSpin(r)->value();
        else
            u.wear = stateSpin(r)->value();
        u.disordered = disorderBox(r) && disorderBox(r)->isChecked();
        if (u.fate != QLatin1String("remaining")) { // the state of a remaining unit only
            u.resolve = 0;
            u.wear = 0;
            u.disordered = false;
        }
    }
    return units;
}

void TableResultDialog::updateTotals() {
    int n[2][3] = {};
    for (const battle::TableUnit& u : enteredUnits()) {
        const int t = u.side == 0 ? 0 : 1;
        if (u.fate == QLatin1String("destroyed"))
            n[t][Destroyed] += u.weight;
        else if (u.fate == QLatin1String("routed"))
            n[t][Routed] += u.weight;
        else if (u.fate == QLatin1String("remaining"))
            n[t][Remaining] += u.weight;
    }
    for (int t = 0; t < 2; ++t)
        for (int c = 0; c < 3; ++c)
            m_spins[t][c]->setValue(n[t][c]);
}

bool TableResultDialog::mapForm() {
    if (!refresh()) {
        showError(QStringLiteral("The table result is not the decision now."));
        return false;
    }
    if (m_formUnits.isEmpty()) {
        showError(QStringLiteral("The battle’s units cannot be read: %1").arg(m_formError));
        return false;
    }
    const GameData& d = gc->data();
    const GameState& s = gc->state();
    const QList<battle::TableUnit> units = enteredUnits();
    for (const battle::TableUnit& u : units)
        if (u.fate.isEmpty()) {
            showError(
                QStringLiteral("Enter the %1’s units: %2 (%3) has no fate yet (remaining, %4destroyed).")
                    .arg(u.side == 0 ? QStringLiteral("attacker") : QStringLiteral("defender"), u.name,
                         u.type,
                         m_formRules == QLatin1String("tvbd") ? QStringLiteral("routed, ") : QString()));
            return false;
        }
    const int winner = m_winner->currentData().toInt();
    QStringList lost[2];
    for (int i = 0; i < m_leaders->count(); ++i) {
        const QListWidgetItem* it = m_leaders->item(i);
        if (it->checkState() == Qt::Checked)
            lost[it->data(Qt::UserRole + 1).toInt()] << it->data(Qt::UserRole).toString();
    }
    battle::TableResult table;
    battle::LinkedResult r;
    battle::TableRecord record;
    QString error;
    if (!battle::tableResultFromUnits(m_formRules, units, winner, lost, &table, &error) ||
        !battle::mapResult(d, s, table, battle::defaultMapping(m_formRules), &r, &error) ||
        !battle::handRecord(d, s, winner, units, lost, &record, &error)) {
        showError(QStringLiteral("The result cannot be mapped: %1").arg(error));
        return false;
    }
    showResult(r, QStringLiteral("from the table, entered by hand"), battle::encodeRecord(record),
               QStringLiteral("<i>Entered by hand: the form (%1 units, their fates and states) goes with the "
                              "result. The other player sees it, his copy checks that it gives this result, "
                              "and he confirms it or disputes it.</i>")
                   .arg(units.size()));
    return true;
}

bool TableResultDialog::fightOnScreen(QString* error) {
    auto fail = [&](const QString& e) { return failWith(e, error); };
    if (!refresh())
        return fail(QStringLiteral("The table result is not the decision now."));
    // The scenario as a file (the tactical window's battle record names it): the data folder's
    // linked-battles/, one file per battle (city, turn, ruleset, seed), written atomically.
    QString path, why;
    quint64 seed = 0;
    if (!writeLinkedScenario(gc->data(), gc->state(), &path, &seed, &why))
        return fail(why);
    auto session = TacticalSession::open(path, seed, &why);
    if (!session)
        return fail(QStringLiteral("The battle cannot be opened: %1").arg(why));
    if (!scenarioHashOf(path, &m_fightHash, &why))
        return fail(why);
    return openInWindow(std::move(session), error);
}

bool TableResultDialog::openInWindow(std::unique_ptr<TacticalSession> session, QString* error) {
    (void)error;
    const CombatFrame* f = combatOnTop(gc->state());
    if (!m_tactical) {
        m_tactical = new TacticalWindow(parentWidget());
        m_tactical->setAttribute(Qt::WA_DeleteOnClose);
        connect(m_tactical, &TacticalWindow::battleOver, this, [this]() { takeBattleEnd(); });
        connect(m_tactical, &TacticalWindow::closingUnfinished, this, [this]() { keepUnfinished(); });
        connect(m_tactical, &QObject::destroyed, this, [this]() { m_tactical = nullptr; });
    }
    m_fightScenario = session->scenarioPath();
    m_fightSeed = session->seed();
    // The export's side 0 is the campaign attacker. A side not played by a human here is the computer's.
    const int att = f->attacker;
    bool computer[2];
    for (int t = 0; t < 2; ++t)
        computer[t] = !gc->isHumanHere(t == 0 ? att : 1 - att);
    m_tactical->setComputerSidesLocked(true); // the seats are the campaign's (e-mail: the receiver's)
    m_tactical->setComputerSide(0, false);
    m_tactical->setComputerSide(1, false);
    m_tactical->setSession(std::move(session));
    m_tactical->setHotseat(!computer[0] && !computer[1]);
    for (int t = 0; t < 2; ++t)
        m_tactical->setComputerSide(t, computer[t]);
    m_tactical->show();
    m_tactical->raise();
    clearResult();
    m_preview->setText(QStringLiteral("<i>The battle is being fought in the tactical window (%1). Its result "
                                      "is shown here when it ends.</i>")
                           .arg(tableRulesTitle(f->table)));
    return true;
}

bool TableResultDialog::keepUnfinished() {
    const TacticalSession* ts = m_tactical ? m_tactical->session() : nullptr;
    if (!ts || ts->over() || ts->scenarioPath() != m_fightScenario || !refresh() ||
        battle::linkedBattleSeed(gc->state()) != m_fightSeed)
        return false;
    const QString path = m_fightScenario.chopped(5) + QStringLiteral(".unfinished.json");
    QString error;
    const bool kept = ts->saveRecord(path, &error);
    m_tabs->setCurrentIndex(3);
    show();
    raise();
    updateUnfinished();
    m_preview->setText(
        kept ? QStringLiteral(
                   "<p><b>Nothing was submitted.</b> The tactical window was closed before the battle "
                   "ended (%1 tactical actions played, %2).</p><p>The unfinished battle is kept: "
                   "<i>Resume the unfinished battle</i> takes it up where it was left (now or after "
                   "a restart, while the campaign waits at this table result); <i>Discard it</i> "
                   "forgets it. The other tabs remain.</p>")
                   .arg(ts->actionTexts().size())
                   .arg(ts->turnText().toHtmlEscaped())
             : QStringLiteral(
                   "<p style='color:#a02020'><b>Nothing was submitted</b>, and the unfinished battle "
                   "could not be kept: %1</p>")
                   .arg(error.toHtmlEscaped()));
    return kept;
}

bool TableResultDialog::resumeUnfinished(QString* error) {
    auto fail = [&](const QString& e) { return failWith(e, error); };
    if (!refresh())
        return fail(QStringLiteral("The table result is not the decision now."));
    const QString path = unfinishedFile();
    if (path.isEmpty())
        return fail(QStringLiteral("No unfinished battle is kept for this table result."));
    QString why;
    auto session = TacticalSession::openRecord(path, &why);
    if (!session)
        return fail(QStringLiteral("The unfinished battle cannot be resumed: %1").arg(why));
    if (session->seed() != battle::linkedBattleSeed(gc->state()))
        return fail(QStringLiteral("%1 is the battle of another position.").arg(path));
    if (!scenarioHashOf(session->scenarioPath(), &m_fightHash, &why))
        return fail(why);
    return openInWindow(std::move(session), error);
}

void TableResultDialog::discardUnfinished() {
    const QString path = unfinishedFile();
    if (!path.isEmpty())
        QFile::remove(path);
    updateUnfinished();
    clearResult();
}

bool TableResultDialog::takeBattleEnd() {
    const TacticalSession* ts = m_tactical ? m_tactical->session() : nullptr;
    if (!ts || ts->scenarioPath() != m_fightScenario || !ts->over())
        return false; // another battle opened in that window, or not over
    m_tabs->setCurrentIndex(3);
    show();
    raise();
    if (!refresh() || battle::linkedBattleSeed(gc->state()) != m_fightSeed) {
        showError(QStringLiteral("The battle fought on screen is over, but the campaign is no longer at its "
                                 "table result."));
        return false;
    }
    const GameData& d = gc->data();
    const GameState& s = gc->state();
    battle::TableResult table;
    QString rules;
    if (const tactical::BattleState* tvbdEnd = ts->tvbdState()) {
        table = battle::tableResultFromTvbd(d, s, *tvbdEnd);
        rules = QStringLiteral("tvbd");
    } else if (const tactical::TerciosState* terciosEnd = ts->terciosState()) {
        table = battle::tableResultFromTercios(*terciosEnd);
        rules = QStringLiteral("tercios");
    }
    // The leaders the table did not kill make the battle's 12.41 roll, as after the auto-resolve
    const battle::LinkMapping mapping = battle::defaultMapping(rules);
    battle::rollTableLeaderLosses(d, s, m_fightSeed, &table, mapping.leaderModifier);
    battle::LinkedResult r;
    QString error;
    if (rules.isEmpty() || !battle::mapResult(d, s, table, mapping, &r, &error)) {
        showError(QStringLiteral("The result cannot be mapped: %1").arg(error));
        return false;
    }
    // The battle's record goes with the result: any copy replays it and checks the result.
    battle::TableRecord record;
    record.by = QStringLiteral("screen");
    record.rules = rules;
    record.seed = m_fightSeed;
    record.scenario = m_fightHash;
    record.battleData = battle::battleDataHash(rules);
    record.computer[0] = m_tactical->isComputerSide(0);
    record.computer[1] = m_tactical->isComputerSide(1);
    record.moves = ts->moves();
    QFile::remove(m_fightScenario.chopped(5) + QStringLiteral(".unfinished.json")); // fought to the end
    updateUnfinished();
    QString evidence;
    QString attachment = battle::encodeRecord(record);
    if (gc->isPbem() && record.handDice() > 0) {
        attachment.clear(); // by e-mail only the battle's own dice count (docs/linked-battles.md)
        evidence =
            QStringLiteral("<i>%1 dice were rolled by hand: by e-mail the result goes as a real table's, "
                           "without the battle's record, and the other player confirms it or disputes "
                           "it.</i>")
                .arg(record.handDice());
    } else {
        evidence =
            QStringLiteral("<i>The battle's record goes with the result (%1 tactical actions%2%3): the "
                           "other player's copy replays it and checks the result.</i>")
                .arg(record.moves.size())
                .arg(record.computer[0] || record.computer[1]
                         ? QStringLiteral(", the computer seat's moves its own choices")
                         : QString(),
                     record.handDice() > 0 ? QStringLiteral(", %1 dice rolled by hand").arg(record.handDice())
                                           : QString());
    }
    showResult(r, QStringLiteral("fought on screen: %1").arg(ts->resultText()), attachment, evidence);
    return true;
}

bool TableResultDialog::submitResult(QString* error) {
    auto fail = [&](const QString& e) { return failWith(e, error); };
    if (!m_pending)
        return fail(QStringLiteral("Nothing to submit: auto-resolve the battle or enter a result first."));
    if (!gc->hasGame() || !isTableResultDecision(gc->legal()))
        return fail(QStringLiteral("The table result is not the decision now."));
    const GameData& d = gc->data();
    const QStringList texts = m_pending->actions(d);
    for (qsizetype i = 0; i < texts.size(); ++i) {
        QString why;
        const std::optional<Action> a = parseAction(d, gc->state(), texts[i], &why);
        const QString where =
            QStringLiteral("Action %1 of %2, “%3”").arg(i + 1).arg(texts.size()).arg(texts[i]);
        if (!a)
            return fail(QStringLiteral("%1 cannot be read: %2").arg(where, why));
        const auto& legal = gc->legal();
        if (std::find(legal.begin(), legal.end(), *a) == legal.end())
            return fail(
                QStringLiteral("%1 is not a legal action now%2 — the result was not entered completely; "
                               "enter the rest from the battle dialog.")
                    .arg(where, i ? QStringLiteral(" (the earlier ones were played)") : QString()));
        if (!gc->submit(*a, &why, i == 0 ? m_pendingAttachment : QString()))
            return fail(QStringLiteral("%1 was refused: %2").arg(where, why));
    }
    m_pending.reset();
    m_pendingAttachment.clear();
    m_battle.clear();
    hide();
    return true;
}

} // namespace wp
