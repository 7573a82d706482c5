#include "promptpanel.h"

#include "describe.h"
#include "gamecontroller.h"
#include "rules/internal.h"
#include "tableresultdialog.h"
#include "theme.h"
#include "wrapbutton.h"

#include <QCheckBox>
#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace wp {

using namespace rules;

namespace {

constexpr int kActionRole = Qt::UserRole + 1;

QString bannerStyle(int side) {
    const QColor a = theme::sideColor(side), b = theme::sideDark(side);
    return QStringLiteral("QLabel { color: white; padding: 8px 10px; border-radius: 6px;"
                          " background: qlineargradient(x1:0, y1:0, x2:0, y2:1, stop:0 %1, stop:1 %2); }")
        .arg(a.name(), b.name());
}

} // namespace

PromptPanel::PromptPanel(GameController* controller, QWidget* parent) : QWidget(parent), gc(controller) {
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(8, 8, 8, 8);
    lay->setSpacing(6);
    m_banner = new QLabel(this);
    m_banner->setObjectName(QStringLiteral("promptBanner"));
    m_banner->setFont(theme::serif(12, true));
    m_banner->setWordWrap(true);
    lay->addWidget(m_banner);
    m_prompt = new QLabel(this);
    m_prompt->setObjectName(QStringLiteral("promptText"));
    m_prompt->setWordWrap(true);
    m_prompt->setFont(theme::sans(9));
    lay->addWidget(m_prompt);

    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_body = new QWidget(scroll);
    m_bodyLayout = new QVBoxLayout(m_body);
    m_bodyLayout->setContentsMargins(0, 0, 0, 0);
    m_bodyLayout->setSpacing(6);
    scroll->setWidget(m_body);
    lay->addWidget(scroll, 1);

    m_allToggle = new QPushButton(this);
    m_allToggle->setCheckable(true);
    m_allToggle->setFlat(true);
    m_allToggle->setStyleSheet(
        QStringLiteral("QPushButton { text-align: left; border: none; background: transparent;"
                       " color: #6a4a20; padding: 2px; }"));
    lay->addWidget(m_allToggle);
    m_all = new QListWidget(this);
    m_all->setObjectName(QStringLiteral("allActions"));
    m_all->setVisible(false);
    m_all->setMaximumHeight(160);
    lay->addWidget(m_all);
    connect(m_allToggle, &QPushButton::toggled, this, [this](bool on) {
        m_all->setVisible(on);
        QString t = m_allToggle->text();
        if (!t.isEmpty())
            t[0] = on ? QChar(0x25BE) : QChar(0x25B8);
        m_allToggle->setText(t);
    });
    connect(m_all, &QListWidget::itemDoubleClicked, this, [this](QListWidgetItem* it) {
        const int i = it->data(kActionRole).toInt();
        if (i >= 0 && i < static_cast<int>(gc->legal().size()))
            submit(gc->legal()[static_cast<size_t>(i)]);
    });
    setMinimumWidth(280);
    refresh();
}

void PromptPanel::submit(const Action& a) {
    emit submitAction(a);
}

void PromptPanel::setHidden(bool hidden) {
    m_hidden = hidden;
    refresh();
}

void PromptPanel::clearBody() {
    m_buttons.clear();
    m_attackBoxes.clear();
    m_tree = nullptr;
    m_play = nullptr;
    m_attack = nullptr;
    QLayoutItem* it;
    while ((it = m_bodyLayout->takeAt(0)) != nullptr) {
        if (it->widget())
            it->widget()->deleteLater();
        else if (it->layout()) {
            QLayoutItem* sub;
            while ((sub = it->layout()->takeAt(0)) != nullptr) {
                if (sub->widget())
                    sub->widget()->deleteLater();
                delete sub;
            }
        }
        delete it;
    }
}

QLabel* PromptPanel::addHeading(const QString& text) {
    auto* l = new QLabel(text.toUpper(), m_body);
    l->setFont(theme::sans(7.5, true));
    l->setStyleSheet(QStringLiteral("QLabel { color: #6a4a20; padding-top: 4px; }"));
    m_bodyLayout->addWidget(l);
    return l;
}

QPushButton* PromptPanel::addButton(QLayout* lay, const Action& a, const QString& text, bool primary) {
    auto* b = new WrapButton(text.isEmpty() ? gc->describe(a) : text, m_body);
    b->setProperty("choice", true);
    if (primary)
        b->setProperty("primary", true);
    b->setToolTip(
        QStringLiteral("<code>%1</code>").arg(formatAction(gc->data(), gc->state(), a).toHtmlEscaped()));
    b->setCursor(Qt::PointingHandCursor);
    connect(b, &QPushButton::clicked, this, [this, a]() {
        // A siege combat is previewed in its dialog before the dice.
        if (a.kind == ActionKind::Assault) {
            int city = -1;
            if (const auto* f = std::get_if<ActivationFrame>(&gc->state().frames.back()))
                city = f->at;
            emit openSiege(city, a);
            return;
        }
        submit(a);
    });
    lay->addWidget(b);
    m_buttons.append(qMakePair(static_cast<QAbstractButton*>(b), a));
    return b;
}

QAbstractButton* PromptPanel::buttonFor(const Action& a) const {
    for (const auto& [b, act] : m_buttons)
        if (act == a)
            return b;
    return nullptr;
}

QTreeWidgetItem* PromptPanel::itemFor(const Action& a) const {
    if (!m_tree)
        return nullptr;
    const auto& legal = gc->legal();
    for (QTreeWidgetItemIterator it(m_tree); *it; ++it) {
        const QVariant v = (*it)->data(0, kActionRole);
        if (!v.isValid())
            continue;
        const int i = v.toInt();
        if (i >= 0 && i < static_cast<int>(legal.size()) && legal[static_cast<size_t>(i)] == a)
            return *it;
    }
    return nullptr;
}

void PromptPanel::refresh() {
    clearBody();
    m_highlights.clear();
    m_locActions.clear();
    m_all->clear();
    if (!gc->hasGame()) {
        m_banner->setStyleSheet(bannerStyle(gc->isPbem() ? gc->pbem()->mySide() : -1));
        m_banner->setText(gc->isPbem() ? QStringLiteral("By e-mail · starting")
                                       : QStringLiteral("Westphalia"));
        m_prompt->setText(gc->isPbem() ? gc->pbemStatus()
                                       : QStringLiteral("Start a new game with Game ▸ New Game (Ctrl+N), or "
                                                        "open a saved one."));
        m_allToggle->setVisible(false);
        m_all->setVisible(false);
        emit highlightsChanged();
        return;
    }
    const GameState& s = gc->state();
    const int actor = gc->actor();
    m_banner->setStyleSheet(bannerStyle(actor));
    if (s.gameOver) {
        m_banner->setText(QStringLiteral("Game over"));
        m_prompt->setText(s.result);
        m_allToggle->setVisible(false);
        m_all->setVisible(false);
        emit highlightsChanged();
        return;
    }
    if (gc->isPbem() && gc->legal().empty()) {
        // Not this copy's decision now: the file must go, or the opponent's is awaited.
        const int me = gc->pbem()->mySide();
        m_banner->setStyleSheet(bannerStyle(me));
        m_banner->setText(QStringLiteral("%1 · by e-mail").arg(theme::sideName(me)));
        m_prompt->setText((gc->pbemMustExport()
                               ? QStringLiteral("Export your turn file (Ctrl+E) and send it.\n\n")
                               : QStringLiteral("Waiting for your opponent's file: import it with Ctrl+I or "
                                                "drop it on the window.\n\n")) +
                          QStringLiteral("Next: %1").arg(actor >= 0 ? gc->game().prompt() : QString()));
        m_allToggle->setVisible(false);
        m_all->setVisible(false);
        emit highlightsChanged();
        return;
    }
    if (actor >= 0 && gc->seat(actor) == SeatKind::Computer) {
        // The computer decides on a worker thread (GameController); nothing here acts for it.
        m_banner->setText(QStringLiteral("%1 · the computer").arg(sideName(actor)));
        m_prompt->setText(QStringLiteral("The computer is thinking: %1").arg(gc->game().prompt()));
        m_allToggle->setVisible(false);
        m_all->setVisible(false);
        emit highlightsChanged();
        return;
    }
    QString title = theme::sideName(actor);
    if (!s.frames.empty())
        if (const auto* t = std::get_if<TurnFrame>(&s.frames.back()); t && t->phase == Phase::Action)
            title += QStringLiteral(" · round %1 of 6").arg(s.roundsUsed[s.activeSide] + 1);
    m_banner->setText(title);
    m_prompt->setText(gc->game().prompt());
    if (m_hidden) {
        m_allToggle->setVisible(false);
        m_all->setVisible(false);
        emit highlightsChanged();
        return;
    }
    const auto& legal = gc->legal();
    m_allToggle->setVisible(true);
    m_allToggle->setText(QStringLiteral("%1 All legal actions (%2)")
                             .arg(m_allToggle->isChecked() ? QStringLiteral("▾") : QStringLiteral("▸"))
                             .arg(legal.size()));
    m_all->setVisible(m_allToggle->isChecked());
    // Linked battles: the table result is thousands of actions; the list shows the first ones only.
    const bool tableResult = isTableResultDecision(legal);
    for (size_t i = 0; i < legal.size(); ++i) {
        if (tableResult && i >= 120) {
            auto* more = new QListWidgetItem(
                QStringLiteral("… %1 more results: use Tabletop result…").arg(legal.size() - i), m_all);
            more->setData(kActionRole, -1);
            break;
        }
        auto* it = new QListWidgetItem(
            QStringLiteral("%1   ·   %2").arg(gc->describe(legal[i]), formatAction(gc->data(), s, legal[i])),
            m_all);
        it->setData(kActionRole, static_cast<int>(i));
        it->setToolTip(QStringLiteral("Double-click to play"));
    }

    const Frame& top = s.frames.back();
    if (const auto* t = std::get_if<TurnFrame>(&top); t && t->phase == Phase::Action)
        buildActionPhase();
    else if (const auto* a = std::get_if<ActivationFrame>(&top); a && a->reactionCity < 0)
        buildActivation();
    else if (std::holds_alternative<CombatFrame>(top)) {
        auto* b = new QPushButton(QStringLiteral("Show the battle"), m_body);
        b->setObjectName(QStringLiteral("showBattle"));
        b->setProperty("primary", true);
        connect(b, &QPushButton::clicked, this, &PromptPanel::openCombat);
        m_bodyLayout->addWidget(b);
        if (isTableResultDecision(legal)) { // linked battles: not thousands of buttons, the dialog
            m_highlights.insert(std::get<CombatFrame>(top).city, Highlight::Attack);
            auto* table = new QPushButton(QStringLiteral("Tabletop result…"), m_body);
            table->setObjectName(QStringLiteral("promptTableResult"));
            table->setProperty("primary", true);
            connect(table, &QPushButton::clicked, this, &PromptPanel::openTableResult);
            m_bodyLayout->addWidget(table);
        } else {
            buildGeneric(QStringLiteral("Decide"));
        }
    } else {
        buildGeneric(QStringLiteral("Choose"));
    }
    m_bodyLayout->addStretch(1);
    emit highlightsChanged();
}

void PromptPanel::buildActionPhase() {
    const GameData& d = gc->data();
    const GameState& s = gc->state();
    const auto& legal = gc->legal();
    const int side = s.activeSide;
    m_tree = new QTreeWidget(m_body);
    m_tree->setObjectName(QStringLiteral("cardTree"));
    m_tree->setHeaderHidden(true);
    m_tree->setRootIsDecorated(true);
    m_tree->setIndentation(14);
    m_tree->setMinimumHeight(300);
    m_tree->setUniformRowHeights(false);
    QHash<int, QTreeWidgetItem*> cardItems;
    for (int16_t card : s.hand[side]) {
        const Card& cd = d.cards[card];
        auto* it = new QTreeWidgetItem(m_tree);
        QString mark = cd.mark == CardMark::Asterisk ? QStringLiteral(" ✱")
                       : cd.mark == CardMark::Dagger ? QStringLiteral(" †")
                                                     : QString();
        it->setText(0, QStringLiteral("%1 · %2 (%3)%4").arg(cd.id, cd.title).arg(cd.value).arg(mark));
        it->setFont(0, theme::sans(8.5, true));
        it->setForeground(0, theme::sideDark(side));
        it->setData(0, Qt::UserRole, static_cast<int>(card));
        it->setToolTip(0, cd.event);
        cardItems.insert(card, it);
    }
    QTreeWidgetItem* freeItem = nullptr;
    for (size_t i = 0; i < legal.size(); ++i) {
        const Action& a = legal[i];
        QTreeWidgetItem* parent = nullptr;
        QString text = gc->describe(a);
        if (a.kind == ActionKind::PlayCard) {
            parent = cardItems.value(a.card);
            const QString use = cardUseName(a.use).toUpper();
            text = QStringLiteral("%1 — %2").arg(use, text);
        } else if (a.kind == ActionKind::FreeAction) {
            if (!freeItem) {
                freeItem = new QTreeWidgetItem(m_tree);
                freeItem->setText(0, QStringLiteral("Free Action — move one unit or a lone leader (8.32)"));
                freeItem->setFont(0, theme::sans(8.5, true));
            }
            parent = freeItem;
        }
        auto* it = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(m_tree);
        it->setText(0, text);
        it->setData(0, kActionRole, static_cast<int>(i));
        it->setToolTip(0, formatAction(d, s, a));
    }
    for (auto* it : cardItems) {
        if (it->childCount() == 0) {
            const int card = it->data(0, Qt::UserRole).toInt();
            auto* note = new QTreeWidgetItem(it);
            note->setText(0, d.cards[card].combat
                                 ? QStringLiteral("Combat card: played during a battle (9.51)")
                                 : QStringLiteral("No legal use now"));
            note->setDisabled(true);
            it->setForeground(0, QColor(0x9a, 0x8a, 0x70));
        }
        it->setExpanded(true);
    }
    if (freeItem)
        freeItem->setExpanded(false);
    m_bodyLayout->addWidget(m_tree, 1);
    m_play = new QPushButton(QStringLiteral("Play"), m_body);
    m_play->setObjectName(QStringLiteral("playButton"));
    m_play->setProperty("primary", true);
    m_play->setEnabled(false);
    m_bodyLayout->addWidget(m_play);
    connect(m_tree, &QTreeWidget::itemSelectionChanged, this, &PromptPanel::treeSelectionChanged);
    connect(m_tree, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* it) {
        const QVariant v = it->data(0, kActionRole);
        if (v.isValid())
            submit(gc->legal()[static_cast<size_t>(v.toInt())]);
    });
    connect(m_play, &QPushButton::clicked, this, [this]() {
        const auto sel = m_tree->selectedItems();
        if (sel.isEmpty())
            return;
        const QVariant v = sel.front()->data(0, kActionRole);
        if (v.isValid())
            submit(gc->legal()[static_cast<size_t>(v.toInt())]);
    });
}

void PromptPanel::treeSelectionChanged() {
    m_highlights.clear();
    const auto sel = m_tree->selectedItems();
    bool playable = false;
    if (!sel.isEmpty()) {
        const QVariant v = sel.front()->data(0, kActionRole);
        if (v.isValid()) {
            playable = true;
            const Action& a = gc->legal()[static_cast<size_t>(v.toInt())];
            const GameState& s = gc->state();
            int loc = -1;
            if (a.kind == ActionKind::PlayCard && a.use == CardUse::Act)
                loc = s.leaders[static_cast<size_t>(a.target)].loc;
            else if (a.kind == ActionKind::FreeAction && a.target == kFreeSwedishBase)
                loc = a.list.front();
            else if (a.kind == ActionKind::FreeAction)
                loc = isLeaderPiece(a.target) ? s.leaders[static_cast<size_t>(a.target - kLeaderBase)].loc
                                              : s.units[static_cast<size_t>(a.target)].loc;
            if (loc >= 0)
                m_highlights.insert(loc, Highlight::Selected);
            if (a.kind == ActionKind::PlayCard)
                emit showCard(a.card);
        } else {
            const QVariant c = sel.front()->data(0, Qt::UserRole);
            if (c.isValid())
                emit showCard(c.toInt());
        }
    }
    m_play->setEnabled(playable);
    emit highlightsChanged();
}

void PromptPanel::selectCard(int card) {
    if (!m_tree)
        return;
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        QTreeWidgetItem* it = m_tree->topLevelItem(i);
        if (it->data(0, Qt::UserRole).toInt() == card && it->data(0, Qt::UserRole).isValid()) {
            it->setExpanded(true);
            QTreeWidgetItem* first = it->childCount() ? it->child(0) : it;
            m_tree->setCurrentItem(first->isDisabled() ? it : first);
            m_tree->scrollToItem(it, QAbstractItemView::PositionAtTop);
            return;
        }
    }
}

void PromptPanel::buildActivation() {
    const GameData& d = gc->data();
    const GameState& s = gc->state();
    const auto& f = std::get<ActivationFrame>(s.frames.back());
    const auto& legal = gc->legal();

    // The moving stack.
    {
        QStringList who;
        for (int l : f.leaders)
            who << QStringLiteral("<b>%1</b>").arg(d.leaders[l].name.toHtmlEscaped());
        QMap<QString, int> units;
        for (int u : f.units)
            units[unitName(d, s, u)]++;
        for (auto it = units.begin(); it != units.end(); ++it)
            who << (it.value() > 1 ? QStringLiteral("%1 × %2").arg(it.value()).arg(it.key()) : it.key());
        int limit = 8;
        for (size_t i = 0; i < f.units.size(); ++i)
            limit = std::min(limit, f.joinedAt[i] + unitMa(d, s, f.units[i]));
        auto* info = new QLabel(m_body);
        info->setObjectName(QStringLiteral("activationInfo"));
        info->setWordWrap(true);
        info->setTextFormat(Qt::RichText);
        info->setStyleSheet(
            QStringLiteral("QLabel { background: #fbf7ee; border: 1px solid #c8b088; border-radius: 6px;"
                           " padding: 6px; }"));
        info->setText(
            QStringLiteral("<span style='font-size:11pt'><b>%1</b> at <b>%2</b></span><br>"
                           "<span style='color:#8a5a00; font-weight:bold'>%3 of %4 MP used</span>"
                           " · leadership %5<br>%6")
                .arg(f.leader >= 0 ? d.leaders[f.leader].name.toHtmlEscaped() : QStringLiteral("Free Action"),
                     cityName(d, f.at).toHtmlEscaped())
                .arg(f.mpUsed)
                .arg(limit)
                .arg(f.leadership)
                .arg(who.isEmpty() ? QStringLiteral("(nothing moving)") : who.join(QStringLiteral(", "))));
        m_bodyLayout->addWidget(info);
    }

    QList<size_t> moves, pickups, drops, attacks, others;
    for (size_t i = 0; i < legal.size(); ++i) {
        switch (legal[i].kind) {
        case ActionKind::Move:
            moves << i;
            break;
        case ActionKind::PickUp:
            pickups << i;
            break;
        case ActionKind::DropOff:
            drops << i;
            break;
        case ActionKind::Attack:
            attacks << i;
            break;
        default:
            others << i;
        }
    }
    if (!attacks.isEmpty()) {
        addHeading(QStringLiteral("Attack (12.13): choose the attacking units"));
        // The units that may attack: the union of the legal selections; preselect the first (the largest).
        QList<int16_t> pool;
        for (size_t i : attacks)
            for (int16_t u : legal[i].list)
                if (!pool.contains(u))
                    pool << u;
        std::sort(pool.begin(), pool.end());
        const auto& first = legal[attacks.front()].list;
        for (int16_t u : pool) {
            auto* cb = new QCheckBox(QStringLiteral("%1 — CF %2").arg(unitName(d, s, u)).arg(unitCf(d, s, u)),
                                     m_body);
            cb->setProperty("unit", static_cast<int>(u));
            cb->setChecked(std::find(first.begin(), first.end(), u) != first.end());
            connect(cb, &QCheckBox::toggled, this, &PromptPanel::updateAttackButton);
            m_bodyLayout->addWidget(cb);
            m_attackBoxes << cb;
        }
        m_attack = new QPushButton(QStringLiteral("Attack"), m_body);
        m_attack->setObjectName(QStringLiteral("attackButton"));
        m_attack->setProperty("primary", true);
        m_bodyLayout->addWidget(m_attack);
        connect(m_attack, &QPushButton::clicked, this, [this]() {
            std::vector<int16_t> sel;
            for (QCheckBox* cb : m_attackBoxes)
                if (cb->isChecked())
                    sel.push_back(static_cast<int16_t>(cb->property("unit").toInt()));
            std::sort(sel.begin(), sel.end());
            for (const Action& a : gc->legal()) {
                if (a.kind != ActionKind::Attack)
                    continue;
                std::vector<int16_t> l = a.list;
                std::sort(l.begin(), l.end());
                if (l == sel) {
                    submit(a);
                    return;
                }
            }
        });
        updateAttackButton();
        m_highlights.insert(f.at, Highlight::Attack);
    }
    if (!moves.isEmpty()) {
        addHeading(QStringLiteral("Move (11.1) — or click a gold-ringed space"));
        auto* grid = new QGridLayout();
        grid->setSpacing(4);
        int k = 0;
        for (size_t i : moves) {
            const Action& a = legal[i];
            auto* b = new QPushButton(QStringLiteral("→ %1").arg(cityName(d, a.target)), m_body);
            b->setProperty("choice", true);
            b->setToolTip(formatAction(d, s, a));
            connect(b, &QPushButton::clicked, this, [this, a]() { submit(a); });
            grid->addWidget(b, k / 2, k % 2);
            m_buttons.append(qMakePair(static_cast<QAbstractButton*>(b), a));
            ++k;
            m_highlights.insert(a.target, Highlight::Move);
            m_locActions.insert(a.target, a);
        }
        m_bodyLayout->addLayout(grid);
    }
    if (!pickups.isEmpty()) {
        addHeading(QStringLiteral("Pick up (11.15)"));
        for (size_t i : pickups)
            addButton(m_bodyLayout, legal[i],
                      QStringLiteral("+ %1").arg(describePiece(d, s, legal[i].list.front())));
    }
    if (!drops.isEmpty()) {
        addHeading(QStringLiteral("Drop off (11.14)"));
        for (size_t i : drops)
            addButton(m_bodyLayout, legal[i],
                      QStringLiteral("− %1").arg(describePiece(d, s, legal[i].list.front())));
    }
    if (!others.isEmpty()) {
        addHeading(QStringLiteral("Or"));
        for (size_t i : others)
            addButton(m_bodyLayout, legal[i], {},
                      legal[i].kind == ActionKind::EndActivation && moves.isEmpty());
    }
}

void PromptPanel::updateAttackButton() {
    if (!m_attack)
        return;
    std::vector<int16_t> sel;
    for (QCheckBox* cb : m_attackBoxes)
        if (cb->isChecked())
            sel.push_back(static_cast<int16_t>(cb->property("unit").toInt()));
    std::sort(sel.begin(), sel.end());
    bool ok = false;
    for (const Action& a : gc->legal()) {
        if (a.kind != ActionKind::Attack)
            continue;
        std::vector<int16_t> l = a.list;
        std::sort(l.begin(), l.end());
        ok |= l == sel;
    }
    std::vector<int> units(sel.begin(), sel.end());
    m_attack->setEnabled(ok);
    m_attack->setText(ok ? QStringLiteral("Attack with %1 unit%2 (%3 CF)")
                               .arg(sel.size())
                               .arg(sel.size() == 1 ? "" : "s")
                               .arg(cfSum(gc->data(), gc->state(), units))
                         : QStringLiteral("Not a legal attacking force"));
}

void PromptPanel::buildGeneric(const QString& heading) {
    const GameData& d = gc->data();
    const GameState& s = gc->state();
    const auto& legal = gc->legal();
    if (legal.empty())
        return;
    const Frame& top = s.frames.back();
    // Targets on the map.
    for (const Action& a : legal) {
        if (a.kind == ActionKind::Retreat && a.target >= 0) {
            m_highlights.insert(a.target, Highlight::Retreat);
            m_locActions.insert(a.target, a);
        } else if (a.kind == ActionKind::Choose && choiceTarget(d, s) == ChoiceTarget::City &&
                   a.target >= 0) {
            m_highlights.insert(a.target, Highlight::Choose);
            m_locActions.insert(a.target, a);
        }
    }
    if (const auto* a = std::get_if<ActivationFrame>(&top); a && a->reactionCity >= 0)
        m_highlights.insert(a->reactionCity, Highlight::Attack);
    if (const auto* c = std::get_if<CombatFrame>(&top))
        if (!m_highlights.contains(c->city))
            m_highlights.insert(c->city, Highlight::Attack);
    addHeading(heading);
    for (const Action& a : legal) {
        // A unit named bare (an event's choice) is named with its city, as the economy's words name it.
        QString text;
        if (a.kind == ActionKind::Choose && choiceTarget(d, s) == ChoiceTarget::Unit &&
            gc->describe(a) == unitName(d, s, a.target))
            text = unitAt(d, s, a.target);
        addButton(m_bodyLayout, a, text, legal.size() <= 2 && &a == &legal.front());
    }
}

bool PromptPanel::handleLocClick(int loc) {
    if (m_hidden || !m_locActions.contains(loc))
        return false;
    submit(m_locActions.value(loc));
    return true;
}

} // namespace wp
