// The decision in progress, driven by the engine's legal actions (design principle 2): card plays grouped
// by card (ACT per leader, REC, AID, Event) and the Free Actions in a tree; moves, pick-ups, drop-offs,
// control, sieges, attacks (choosing the units), reactions, retreats and choices as buttons, with the
// legal targets highlighted on the map (a click there plays them). Every legal action is also listed
// under "All legal actions", so none is ever out of reach.
#pragma once

#include "mapstate.h"
#include "rules/action.h"

#include <QHash>
#include <QWidget>

class QAbstractButton;
class QLabel;
class QPushButton;
class QTreeWidget;
class QTreeWidgetItem;
class QListWidget;
class QVBoxLayout;
class QCheckBox;

namespace wp {

class GameController;

class PromptPanel : public QWidget {
    Q_OBJECT
  public:
    explicit PromptPanel(GameController* gc, QWidget* parent = nullptr);

    void refresh();
    void setHidden(bool hidden); // the hotseat cover is up: show nothing of the hand
    void selectCard(int card);   // a card clicked in the hand
    // A click on the map: plays the one legal action whose target is that space. Returns whether it did.
    bool handleLocClick(int loc);
    const QHash<int, Highlight>& highlights() const { return m_highlights; }

    // The widgets that stand for an action (tests drive the panel through them).
    QAbstractButton* buttonFor(const rules::Action& a) const;
    QTreeWidgetItem* itemFor(const rules::Action& a) const;
    QTreeWidget* cardTree() const { return m_tree; }
    QPushButton* playButton() const { return m_play; }
    QList<QCheckBox*> attackBoxes() const { return m_attackBoxes; }
    QPushButton* attackButton() const { return m_attack; }
    QListWidget* allActions() const { return m_all; }

  signals:
    void submitAction(const rules::Action& a);
    void highlightsChanged();
    void openCombat();
    void openTableResult(); // linked battles: the tabletop result dialog
    void openSiege(int city, const rules::Action& assault);
    void showCard(int card);

  private:
    GameController* gc;
    QLabel* m_banner;
    QLabel* m_prompt;
    QWidget* m_body = nullptr;
    QVBoxLayout* m_bodyLayout = nullptr;
    QTreeWidget* m_tree = nullptr;
    QPushButton* m_play = nullptr;
    QPushButton* m_attack = nullptr;
    QList<QCheckBox*> m_attackBoxes;
    QListWidget* m_all;
    QPushButton* m_allToggle;
    QList<QPair<QAbstractButton*, rules::Action>> m_buttons;
    QHash<int, Highlight> m_highlights;
    QHash<int, rules::Action> m_locActions; // map click -> action
    bool m_hidden = false;

    void clearBody();
    QPushButton* addButton(QLayout* lay, const rules::Action& a, const QString& text = {},
                           bool primary = false);
    QLabel* addHeading(const QString& text);
    void buildActionPhase();
    void buildActivation();
    void buildGeneric(const QString& heading);
    void updateAttackButton();
    void treeSelectionChanged();
    void submit(const rules::Action& a);
};

} // namespace wp
