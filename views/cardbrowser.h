// All 110 Strategy cards with filters (side, deck, combat, text), and a card shown in full.
#pragma once

#include "data/gamedata.h"
#include "rules/state.h"

#include <QDialog>

class QListWidget;
class QComboBox;
class QLineEdit;
class QLabel;

namespace wp {

class CardView : public QWidget {
    Q_OBJECT
  public:
    CardView(const GameData& d, QWidget* parent = nullptr);
    void setCard(int card, const QString& badge = {});
    int card() const { return m_card; }
    QSize sizeHint() const override { return QSize(360, 520); }

  protected:
    void paintEvent(QPaintEvent* e) override;

  private:
    const GameData& d;
    int m_card = -1;
    QString m_badge;
};

class CardBrowser : public QDialog {
    Q_OBJECT
  public:
    CardBrowser(const GameData& d, QWidget* parent = nullptr);
    void setState(const rules::GameState* s); // marks played, removed and in-hand cards
    void showCard(int card);
    QListWidget* list() const { return m_list; }

  private:
    const GameData& d;
    QListWidget* m_list;
    QComboBox* m_side;
    QComboBox* m_deck;
    QLineEdit* m_search;
    CardView* m_view;
    QLabel* m_count;
    std::vector<rules::CardPlace> m_places;
    void rebuild();
    QString placeBadge(int card) const;
};

} // namespace wp
